/**
 * `npm create fa-mcp`, end to end, the way a user meets it while fa-mcp-sdk is not on the registry:
 * the workspace packages are packed, the packed CLI generates a project non-interactively with
 * `--sdk <fa-mcp-sdk tarball>` (vendored into the project as vendor/fa-mcp-sdk-<version>.tgz), the
 * lockfile is made and everything is committed to git. A `git clone` of that repository in another
 * folder — what a teammate or CI gets — installs with `npm ci`, lints, typechecks, tests and builds
 * with its own scripts, then starts; the official MCP Inspector (CLI mode) calls its example tool
 * over HTTP, and SIGTERM stops it with exit code 0. The Dockerfile is checked for shape (no Docker
 * engine here).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerfileProblems } from './dockerfile-shape.js';
import { listFiles, PKG_ROOT, REPO_ROOT, SDK_ROOT, tempDir } from './helpers.js';
import { assertBuildIsCurrent, runOk } from './run.js';

const tmp = tempDir('create-fa-mcp-e2e-');
// Removing the installed project takes a while on a busy machine.
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') console.log(`e2e project kept in ${tmp.dir}`);
  else await rm(tmp.dir, { recursive: true, force: true, maxRetries: 5 });
}, 180_000);
beforeAll(assertBuildIsCurrent);

const INSPECTOR = join(REPO_ROOT, 'node_modules', '.bin', 'mcp-inspector');
const env: NodeJS.ProcessEnv = { ...process.env, npm_config_user_agent: 'npm/10 node/v20', npm_config_fund: 'false', npm_config_audit: 'false' };
// vitest marks its own process (NODE_ENV=test, VITEST*); the generated project's tools choose their own.
for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('VITEST')) delete env[key];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm create fa-mcp, end to end', () => {
  it('packs, generates with the vendored SDK, commits, clones, installs with npm ci, lints, typechecks, tests, builds, starts, serves the Inspector and stops', async () => {
    const t0 = Date.now();
    const lap: Record<string, number> = {};
    const mark = (name: string) => (lap[name] = Math.round((Date.now() - t0) / 1000));

    // 1. Pack the workspace packages as they would be published.
    const packs = join(tmp.dir, 'packs');
    await runOk('pnpm', ['pack', '--pack-destination', packs], { cwd: SDK_ROOT, timeoutMs: 60_000 });
    await runOk('pnpm', ['pack', '--pack-destination', packs], { cwd: PKG_ROOT, timeoutMs: 60_000 });
    const tarballs = readdirSync(packs);
    const sdkTgz = join(packs, tarballs.find((f) => f.startsWith('fa-mcp-sdk-')) as string);
    const cliTgz = join(packs, tarballs.find((f) => f.startsWith('create-fa-mcp-')) as string);
    mark('pack');

    // 2. Run the packed CLI as `npm create` does, without questions, with the packed fa-mcp-sdk.
    await runOk('npm', ['exec', '--yes', `--package=${cliTgz}`, '--', 'create-fa-mcp', 'e2e-server', '--yes', '--no-install', '--description', 'End-to-end test server', '--sdk', sdkTgz], {
      cwd: tmp.dir,
      env,
      timeoutMs: 120_000,
    });
    const origin = join(tmp.dir, 'e2e-server');
    const generated = listFiles(origin);
    expect(generated.filter((f) => !f.endsWith('.tgz') && readFileSync(join(origin, f), 'utf8').includes('{{'))).toEqual([]);
    const vendored = `vendor/${basename(sdkTgz)}`;
    expect(generated).toContain(vendored);
    const pkg = JSON.parse(readFileSync(join(origin, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['fa-mcp-sdk']).toBe(`file:${vendored}`); // relative: found wherever the project is
    mark('generate');

    // 3. The lockfile, then a commit of everything the generated .gitignore lets in.
    await runOk('npm', ['install', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: origin, env, timeoutMs: 240_000 });
    expect(readFileSync(join(origin, 'package-lock.json'), 'utf8')).not.toContain(tmp.dir); // no absolute path of this machine
    const git = (args: string[], cwd: string) => runOk('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, env, timeoutMs: 60_000 });
    await git(['init', '--quiet'], origin);
    await git(['add', '--all'], origin);
    await git(['commit', '--quiet', '--message', 'generated by create-fa-mcp'], origin);
    const committed = (await git(['ls-files'], origin)).stdout.split('\n');
    expect(committed).toEqual(expect.arrayContaining([vendored, 'package-lock.json', 'Dockerfile', '.dockerignore']));
    expect(committed).not.toContain('.env'); // the secrets stay behind

    // 4. Another folder, as a teammate or CI gets it, where the tarballs packed in step 1 are not:
    // a clone, `npm ci`, then the project's own checks.
    await rm(packs, { recursive: true, force: true });
    const project = join(tmp.dir, 'elsewhere', 'e2e-clone');
    await git(['clone', '--quiet', origin, project], tmp.dir);
    mark('clone');
    await runOk('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env, timeoutMs: 240_000 });
    mark('install');
    await Promise.all(
      ['lint', 'typecheck', 'test', 'build'].map((script) => runOk('npm', ['run', script], { cwd: project, env, timeoutMs: 420_000 })),
    );
    mark('checks');
    expect(existsSync(join(project, 'dist', 'start.js'))).toBe(true);
    expect(dockerfileProblems(project)).toEqual([]); // every COPY source (vendor/ and the lockfile included) is in the clone

    // 5. Start the clone as production would, and call its tool with the official MCP Inspector.
    const port = await freePort();
    const server = spawn(process.execPath, ['dist/start.js'], { cwd: project, env: { ...env, NODE_ENV: 'production', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      await waitForHealth(`http://127.0.0.1:${port}/health`, 60_000);
      const inspector = await runOk(
        INSPECTOR,
        ['--cli', `http://127.0.0.1:${port}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'say_hello', '--tool-arg', 'name=World'],
        { cwd: tmp.dir, env, timeoutMs: 60_000 },
      );
      const result = JSON.parse(inspector.stdout) as { structuredContent?: { greeting?: string }; isError?: boolean };
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({ greeting: 'Hello, World!' });
      mark('inspector');
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, log).toBe(0);
    mark('stopped');
    console.log(`e2e timings (s since start): ${JSON.stringify(lap)}`);
  }, 900_000);
});
