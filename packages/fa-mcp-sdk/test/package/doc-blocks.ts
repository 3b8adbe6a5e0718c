/**
 * The ```typescript blocks of FA-MCP-SDK-DOC/ and of the READMEs, as the docs
 * example tests read them (docs-examples.test.ts compiles them all,
 * docs-examples-stdio.test.ts runs those that start a server over stdio), and
 * a block turned into a module node runs against the built package.
 *
 * A block that is a fragment says so on the line before it, with the reason
 * (`<!-- fragment: continues the tool of the previous block -->`); a block
 * marked `<!-- runnable -->` is run with Node as it is; a block that starts a server but cannot
 * run alone over stdio says why (`<!-- not-over-stdio: reads the bundled view file -->`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const PKG = fileURLToPath(new URL('../../', import.meta.url));
export const ROOT = join(PKG, '..', '..');
export const DIST = join(PKG, 'dist');

export const PAGES = [
  ...readdirSync(join(ROOT, 'FA-MCP-SDK-DOC')).filter((f) => f.endsWith('.md')).map((f) => `FA-MCP-SDK-DOC/${f}`),
  'README.md',
  'packages/fa-mcp-sdk/README.md',
  'packages/create-fa-mcp/README.md',
];

export interface Block {
  page: string;
  line: number;
  code: string;
  fragment?: string;
  runnable: boolean;
  /** Why the block is not run over stdio (a server that needs files only a real project has). */
  notOverStdio?: string;
  /** Where the block is written as a module of its own (in `work`). */
  file: string;
}

export function blocksOf(page: string, work: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(typescript|ts)\s*$/.test(lines[i] as string)) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    let marker = '';
    for (let j = start - 1; j >= 0 && j >= start - 3; j--) {
      const m = /^<!--\s*(fragment:[^>]*|not-over-stdio:[^>]*|runnable)\s*-->/.exec((lines[j] as string).trim());
      if (m) {
        marker = m[1] as string;
        break;
      }
      if ((lines[j] as string).trim() !== '') break;
    }
    const reason = (kind: string) => (marker.startsWith(`${kind}:`) ? marker.slice(kind.length + 1).trim() : undefined);
    const fragment = reason('fragment');
    const notOverStdio = reason('not-over-stdio');
    const name = `${page.replace(/[^A-Za-z0-9]+/g, '_')}_L${start + 1}.ts`;
    const code = lines.slice(start + 1, end).join('\n');
    out.push({ page, line: start + 1, code, fragment, ...(notOverStdio !== undefined ? { notOverStdio } : {}), runnable: marker === 'runnable', file: join(work, name) });
    i = end;
  }
  return out;
}

/** The block as an ES module node runs: TypeScript removed, `fa-mcp-sdk` (and its subpaths) resolved to the build. */
export function runnableModule(block: Block): string {
  const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const dist = (entry: string) => pathToFileURL(join(DIST, entry, 'index.js')).href;
  // every entry point: fa-mcp-sdk and its subpaths (dist/<subpath>/index.js)
  return js.replace(/from (['"])fa-mcp-sdk(\/[\w-]+)?\1/g, (_m, _q, sub: string | undefined) => `from '${dist(sub ? sub.slice(1) : '.')}'`);
}
