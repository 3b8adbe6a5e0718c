/**
 * Every ```typescript block of FA-MCP-SDK-DOC/ and of the READMEs compiles, under `strict`,
 * against the built package (`fa-mcp-sdk` resolves to packages/fa-mcp-sdk/dist), each block as
 * its own module. A block that is a fragment (it uses names the page defined elsewhere) says so
 * on the line before it, with the reason:
 *
 *     <!-- fragment: continues the tool of the previous block -->
 *
 * A block marked `<!-- runnable -->` is also run with Node (after compiling) and must exit 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, DIST, PAGES, PKG, ROOT, runnableModule } from './doc-blocks.js';

// Inside the package, so imports other than fa-mcp-sdk (express, zod, …) resolve from its node_modules.
const WORK = join(PKG, 'node_modules', '.cache', 'docs-examples');

const blocks = PAGES.flatMap((page) => blocksOf(page, WORK));
const compiled = blocks.filter((b) => b.fragment === undefined);

beforeAll(() => {
  if (!existsSync(join(DIST, 'index.d.ts'))) throw new Error('packages/fa-mcp-sdk/dist is missing: run `pnpm run build` at the repository root first');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  // Each block is a module of its own (`export {}` makes a block without imports one too).
  for (const b of compiled) writeFileSync(b.file, `${b.code}\nexport {};\n`);
});
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe('documentation examples', () => {
  it('every fragment marker gives a reason', () => {
    const bare = blocks.filter((b) => b.fragment === '').map((b) => `${b.page}:${b.line}`);
    expect(bare, 'write why the block cannot compile alone: <!-- fragment: <reason> -->').toEqual([]);
  });

  it('every ```typescript block compiles against the built package', () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(PKG, 'node_modules', '@types')],
      baseUrl: WORK,
      paths: { 'fa-mcp-sdk': [join(DIST, 'index.d.ts')], 'fa-mcp-sdk/*': [join(DIST, '*', 'index.d.ts')] },
    };
    // The blocks are ESM, as in a consumer's project with "type": "module".
    writeFileSync(join(WORK, 'package.json'), '{ "type": "module" }');
    const program = ts.createProgram(compiled.map((b) => b.file), options);
    const byFile = new Map(compiled.map((b) => [b.file, b]));
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const block = d.file ? byFile.get(d.file.fileName) : undefined;
      if (!block || !d.file || d.start === undefined) return `${d.file ? relative(ROOT, d.file.fileName) : '(global)'}: ${text}`;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${block.page}:${block.line + 1 + line}: ${text}`;
    });
    expect(
      problems,
      'fix the example on the page (line numbers are the page\'s), or, if it only continues an earlier block, ' +
        'put <!-- fragment: <reason> --> on the line before its ```typescript',
    ).toEqual([]);
  }, 240_000);

  for (const block of compiled.filter((b) => b.runnable)) {
    it(`${block.page}:${block.line} runs`, async () => {
      const file = block.file.replace(/\.ts$/, '.mjs');
      writeFileSync(file, runnableModule(block));
      const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [file], { cwd: WORK, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.once('close', (c) => {
          clearTimeout(timer);
          resolve({ code: c, out });
        });
      });
      expect(result.code, `the runnable example at ${block.page}:${block.line} failed:\n${result.out}`).toBe(0);
    }, 90_000);
  }
});

