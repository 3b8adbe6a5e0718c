/**
 * The package as a consumer installs it: packed with `pnpm pack`, installed with npm into a fresh
 * project, and compiled with `strict` and `skipLibCheck: false` over code that imports every entry
 * point (consumer/consumer.ts), in a project with `@types/node` and no other typings: the
 * published types name no express or pg type (issue 24). Then, with `@types/express` and `@types/pg`
 * added, consumer/interop.ts proves the real express and pg objects fit fa-mcp-sdk's own shapes.
 * The tarball carries README.md and LICENSE, and `@arethetypeswrong/cli` and `publint` find no
 * problem in it.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PARTS } from '../../src/core/optional-package.js';

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = join(PKG, '..', '..');
const CONSUMER = fileURLToPath(new URL('./consumer/', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${out}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The newest modification time under a folder. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

const devDependency = (file: string, name: string): string => {
  const spec = (JSON.parse(readFileSync(file, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[name];
  if (!spec) throw new Error(`${name} is not a devDependency in ${file}`);
  return `${name}@${spec}`;
};

const work = mkdtempSync(join(tmpdir(), 'fa-mcp-consumer-'));
let tarball = '';

beforeAll(async () => {
  const dist = join(PKG, 'dist', 'index.d.ts');
  if (!existsSync(dist) || statSync(dist).mtimeMs < newest(join(PKG, 'src'))) {
    throw new Error('packages/fa-mcp-sdk/dist is missing or older than src/: run `pnpm run build` at the repository root first');
  }
  const packed = await run('pnpm', ['pack', '--pack-destination', work], PKG, 120_000);
  expect(packed.code, packed.out).toBe(0);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) as string);
}, 180_000);
// Removing the installed project takes a while on a busy machine.
afterAll(() => rm(work, { recursive: true, force: true, maxRetries: 5 }), 180_000);

describe('the packed fa-mcp-sdk', () => {
  it('carries README.md and LICENSE', async () => {
    const listing = await run('tar', ['tzf', tarball], work, 30_000);
    const files = listing.out.split('\n');
    expect(files, 'add README.md and LICENSE to packages/fa-mcp-sdk and to "files" in its package.json').toEqual(
      expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json', 'package/dist/index.d.ts']),
    );
  }, 60_000);

  it('publint finds nothing to warn about', async () => {
    const lint = await run(join(BIN, 'publint'), ['run', tarball, '--strict'], work, 120_000);
    expect(lint.code, `publint reports problems in the package (fix packages/fa-mcp-sdk/package.json):\n${lint.out}`).toBe(0);
    expect(lint.out).not.toMatch(/Warnings:|Errors:/);
  }, 180_000);

  it('are-the-types-wrong finds no problem for Node 16+ and bundlers, ESM and CJS', async () => {
    // node10 resolution ignores "exports"; the package needs Node >= 20 ("engines"), so it does not apply.
    const attw = await run(join(BIN, 'attw'), [tarball, '--profile', 'node16', '--format', 'ascii'], work, 120_000);
    expect(attw.code, `attw reports problems in the package's types (check "exports" in packages/fa-mcp-sdk/package.json):\n${attw.out}`).toBe(0);
  });

  it('compiles a consumer of every entry point with strict and skipLibCheck false, with @types/node only', async () => {
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    for (const file of ['consumer.ts', 'interop.ts', 'tsconfig.json', 'tsconfig.interop.json']) copyFileSync(join(CONSUMER, file), join(app, file));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // fa-mcp-sdk/testing needs the MCP client, an optional peer a consumer of that entry installs (page 01)
    const client = `@modelcontextprotocol/client@${OPTIONAL_PARTS.mcpClient.packages[0][1]}`;
    // a consumer of a Node server framework has Node's typings (page 01 says so); nothing else is assumed
    const nodeTypes = devDependency(join(ROOT, 'package.json'), '@types/node');
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, client, nodeTypes], app, 400_000);
    expect(install.code, `npm install of the packed package failed:\n${install.out}`).toBe(0);
    for (const typings of ['@types/express', '@types/pg']) {
      expect(existsSync(join(app, 'node_modules', typings)), `${typings} is installed with fa-mcp-sdk: keep it out of "dependencies"`).toBe(false);
    }
    const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], app, 300_000);
    expect(
      compiled.code,
      'a consumer does not compile against the published types: a .d.ts names a type of a package whose typings ' +
        `the consumer does not have (declare the shape in fa-mcp-sdk, see src/core/http-types.ts and src/db/pg-types.ts)\n${compiled.out}`,
    ).toBe(0);

    // with express's and pg's own typings, their objects fit the shapes fa-mcp-sdk names
    const sdkPkg = join(PKG, 'package.json');
    const more = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', devDependency(sdkPkg, '@types/express'), devDependency(sdkPkg, '@types/pg')], app, 400_000);
    expect(more.code, `npm install of @types/express and @types/pg failed:\n${more.out}`).toBe(0);
    const interop = await run(process.execPath, [tsc, '-p', 'tsconfig.interop.json'], app, 300_000);
    expect(interop.code, `express's or pg's objects do not fit the shapes fa-mcp-sdk declares:\n${interop.out}`).toBe(0);
  }, 900_000);
});
