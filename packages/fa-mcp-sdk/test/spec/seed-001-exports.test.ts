/**
 * Specification seed 001: every name of the documentation index's Key Exports
 * blocks resolves from the BUILT package (run `pnpm run build` first), by its
 * name `fa-mcp-sdk` through the exports map: the values from both the ESM and
 * the CJS build, the types in a file tsc compiles against the emitted .d.ts.
 * The free functions it names (getTools, notifyResourceUpdated, getTaskStore,
 * resetTaskStore) then work on a running server.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const names = JSON.parse(readFileSync(new URL('./fixtures/seed-001-key-exports.json', import.meta.url), 'utf8')) as { values: string[]; types: string[] };
const require = createRequire(import.meta.url);

/** A project outside the repository that installed the package (a symlink, as pnpm links it). */
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'fa-mcp-exports-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(PACKAGE_DIR, join(project, 'node_modules', 'fa-mcp-sdk'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('seed 001: Key Exports of fa-mcp-sdk', () => {
  it('every value resolves from the ESM and the CJS build', async () => {
    const entry = join(project, 'node_modules', 'fa-mcp-sdk');
    const esm = (await import(pathToFileURL(join(entry, 'dist', 'index.js')).href)) as Record<string, unknown>;
    const cjs = createRequire(join(project, 'package.json'))('fa-mcp-sdk') as Record<string, unknown>;
    for (const name of names.values) {
      expect(esm[name], `ESM ${name}`).toBeDefined();
      expect(cjs[name], `CJS ${name}`).toBeDefined();
    }
  });

  it('every name, value or type, compiles in a consumer\'s TypeScript file', () => {
    const source = [
      `import { ${names.values.join(', ')} } from 'fa-mcp-sdk';`,
      `import type { ${names.types.join(', ')} } from 'fa-mcp-sdk';`,
      `export const values = [${names.values.join(', ')}];`,
      ...names.types.map((t, i) => `export type T${i} = ${t};`),
      // The free functions have the signatures page 11 documents.
      `export const tools: Promise<Array<{ name: string }>> = getTools();`,
      `export const notified: Promise<number> = notifyResourceUpdated('docs://readme');`,
      `export const store: ITaskStore = getTaskStore();`,
      `export const reset: Promise<void> = resetTaskStore();`,
      `export const status: TTaskStatus = 'working';`,
    ].join('\n');
    writeFileSync(join(project, 'check.ts'), source);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: [] }, files: ['check.ts'] }),
    );
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], { encoding: 'utf8' });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
  });
});
