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
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = join(PKG, '..', '..');
const DIST = join(PKG, 'dist');
const PAGES = [
  ...readdirSync(join(ROOT, 'FA-MCP-SDK-DOC')).filter((f) => f.endsWith('.md')).map((f) => `FA-MCP-SDK-DOC/${f}`),
  'README.md',
  'packages/fa-mcp-sdk/README.md',
  'packages/create-fa-mcp/README.md',
];
// Inside the package, so imports other than fa-mcp-sdk (express, zod, …) resolve from its node_modules.
const WORK = join(PKG, 'node_modules', '.cache', 'docs-examples');

interface Block {
  page: string;
  line: number;
  code: string;
  fragment?: string;
  runnable: boolean;
  file: string;
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(typescript|ts)\s*$/.test(lines[i] as string)) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    let marker = '';
    for (let j = start - 1; j >= 0 && j >= start - 3; j--) {
      const m = /^<!--\s*(fragment:[^>]*|runnable)\s*-->/.exec((lines[j] as string).trim());
      if (m) {
        marker = m[1] as string;
        break;
      }
      if ((lines[j] as string).trim() !== '') break;
    }
    const fragment = marker.startsWith('fragment:') ? marker.slice('fragment:'.length).trim() : undefined;
    const name = `${page.replace(/[^A-Za-z0-9]+/g, '_')}_L${start + 1}.ts`;
    out.push({ page, line: start + 1, code: lines.slice(start + 1, end).join('\n'), fragment, runnable: marker === 'runnable', file: join(WORK, name) });
    i = end;
  }
  return out;
}

const blocks = PAGES.flatMap(blocksOf);
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
      const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      const dist = (entry: string) => pathToFileURL(join(DIST, entry, 'index.js')).href;
      const code = js.replace(/from (['"])fa-mcp-sdk(\/(testing|db))?\1/g, (_m, _q, sub: string | undefined) => `from '${dist(sub ? sub.slice(1) : '.')}'`);
      const file = block.file.replace(/\.ts$/, '.mjs');
      writeFileSync(file, code);
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

