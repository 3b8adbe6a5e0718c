/**
 * `npm create fa-mcp`, end to end, the way a user meets it: the workspace packages are packed,
 * the packed CLI generates a project non-interactively (fa-mcp-sdk pointed at the packed
 * tarball), the project installs, lints, typechecks, tests and builds with its own scripts, then
 * starts; the official MCP Inspector (CLI mode) calls its example tool over HTTP, and SIGTERM
 * stops it with exit code 0. The Dockerfile is checked for shape (no Docker engine here).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
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
  it('packs, generates, installs, lints, typechecks, tests, builds, starts, serves the Inspector and stops', async () => {
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

    // 2. Run the packed CLI as `npm create` does, without questions.
    await runOk('npm', ['exec', '--yes', `--package=${cliTgz}`, '--', 'create-fa-mcp', 'e2e-server', '--yes', '--no-install', '--description', 'End-to-end test server'], {
      cwd: tmp.dir,
      env,
      timeoutMs: 120_000,
    });
    const project = join(tmp.dir, 'e2e-server');
    const generated = listFiles(project);
    expect(generated.filter((f) => readFileSync(join(project, f), 'utf8').includes('{{'))).toEqual([]);
    const pkgFile = join(project, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['fa-mcp-sdk']).toMatch(/^\^\d+\.\d+\.\d+$/); // a version range for real users
    pkg.dependencies['fa-mcp-sdk'] = `file:${sdkTgz}`;
    writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
    mark('generate');

    // 3. Install, then the project's own checks (independent, so side by side).
    await runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env, timeoutMs: 240_000 });
    mark('install');
    await Promise.all(
      ['lint', 'typecheck', 'test', 'build'].map((script) => runOk('npm', ['run', script], { cwd: project, env, timeoutMs: 420_000 })),
    );
    mark('checks');
    expect(existsSync(join(project, 'dist', 'start.js'))).toBe(true);
    expect(dockerfileProblems(project)).toEqual([]); // the lockfile now exists: every COPY source must

    // 4. Start it as production would, and call its tool with the official MCP Inspector.
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
