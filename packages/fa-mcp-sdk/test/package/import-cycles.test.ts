/**
 * No import cycles in the library's sources, type-only imports included (ARCHITECTURE.md: "No
 * import cycles, type-only imports included (`madge --circular` prints none)"). madge (a pinned
 * root devDependency) reads the same graph as `npx madge --circular --extensions ts
 * packages/fa-mcp-sdk/src`; a cycle fails `npm test` with the list of cycles. The first case
 * proves the check can fail: a cycle made only of `import type` is found.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The part of madge's API used here (madge ships no type declarations). */
interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
}
type Madge = (path: string, config: { fileExtensions: string[] }) => Promise<MadgeResult>;
const madge = createRequire(import.meta.url)('madge') as Madge;

async function cyclesIn(dir: string): Promise<{ files: number; cycles: string[] }> {
  const result = await madge(dir, { fileExtensions: ['ts'] });
  return { files: Object.keys(result.obj()).length, cycles: result.circular().map((cycle) => cycle.join(' > ')) };
}

describe('import cycles', () => {
  it('are found when made of type-only imports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fa-mcp-cycles-'));
    try {
      await writeFile(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b?: B }\n");
      await writeFile(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
      await writeFile(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
      expect(await cyclesIn(dir)).toEqual({ files: 3, cycles: ['a.ts > b.ts'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are none in packages/fa-mcp-sdk/src', async () => {
    const { files, cycles } = await cyclesIn(SRC);
    expect(files).toBeGreaterThan(300);
    expect(cycles, `import cycles in packages/fa-mcp-sdk/src (madge --circular, types included):\n${cycles.join('\n')}\n`).toEqual([]);
  }, 60_000);
});
