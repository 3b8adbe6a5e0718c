#!/usr/bin/env node
// Runs the official MCP conformance suites against examples/conformance-server:
//   - @modelcontextprotocol/conformance 0.1.16, `--suite all` (32 scenarios);
//   - 0.2.0-alpha.12 (root devDependency `conformance-alpha`), `--requirements 2026-07-28`
//     and `--requirements 2025-11-25`: every scenario the run reports, scored or not,
//     the tasks extension scenarios (tasks-*) included.
// Builds nothing: the workspace must be built (`pnpm run build`). For each run it starts
// the server on a free port of 127.0.0.1, waits for /health, runs the suite with the
// Node 20 loader, prints every scenario as what it was (passed with n checks, failed, skipped
// by the suite with its reason, or no checks, with the suite's warnings; scripts/conformance/
// results.mjs reads the suite's checks.json files), stops the server with SIGTERM, and fails
// when a check fails, the suite skips a scenario not listed below, fewer scenarios pass than
// expected, or the server does not stop cleanly. A scenario with no checks is not a pass.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatScenarios, readScenarios, verdict } from './results.mjs';

/**
 * The runs. `expected`: how many scenarios must pass (every one that runs checks: scored,
 * pending and added-after-release ones); `expectedSkips`: scenarios the suite itself skips, and
 * why (any other skip fails the run); `noChecks`: scenarios known to run no scored check here,
 * and why (shown, never counted as passed).
 */
const RUNS = [
  {
    pkg: '@modelcontextprotocol/conformance',
    args: ['--suite', 'all'],
    expected: 31,
    noChecks: {
      'server-sse-polling':
        '0.1.16 drives it at protocol 2025-03-26, and the priming event (the only thing it checks) is for 2025-11-25 clients and later, so it only warns; the alpha run of 2025-11-25 checks it',
    },
  },
  {
    pkg: 'conformance-alpha',
    args: ['--requirements', '2026-07-28'],
    expected: 49,
    expectedSkips: {
      'tasks-status-notifications':
        'the suite skips it itself in 0.2.0-alpha.12: its harness still watches the tools/call stream, while SEP-2663 moved notifications/tasks to subscriptions/listen',
    },
  },
  { pkg: 'conformance-alpha', args: ['--requirements', '2025-11-25'], expected: 33 },
];
const HOST = '127.0.0.1';
const STARTUP_TIMEOUT_MS = 30_000;
const SUITE_TIMEOUT_MS = 10 * 60_000;
const STOP_TIMEOUT_MS = 20_000;

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverDir = join(root, 'examples', 'conformance-server');
const loader = pathToFileURL(join(here, 'globsync-loader.mjs')).href;

function conformanceBin(name) {
  const require = createRequire(join(root, 'package.json'));
  const pkgPath = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.conformance;
  return { path: join(dirname(pkgPath), bin), version: pkg.version, name: pkg.name };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keeps the last lines a child wrote, to show them when something goes wrong. */
function tail(limit = 200) {
  const lines = [];
  return {
    push(chunk) {
      lines.push(...String(chunk).split('\n'));
      if (lines.length > limit) lines.splice(0, lines.length - limit);
    },
    text: () => lines.join('\n'),
  };
}

async function waitForHealth(base, server) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the conformance server exited early with code ${server.exitCode}`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`the conformance server did not answer ${base}/health within ${STARTUP_TIMEOUT_MS} ms`);
}

function stopServer(server) {
  return new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve({ code: server.exitCode, signal: server.signalCode, killed: false });
    const timer = setTimeout(() => {
      server.kill('SIGKILL');
      resolve({ code: null, signal: 'SIGKILL', killed: true });
    }, STOP_TIMEOUT_MS);
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed: false });
    });
    server.kill('SIGTERM');
  });
}

function runSuite(bin, args, url, outputDir) {
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(
      process.execPath,
      ['--import', loader, bin, 'server', '--url', url, ...args, '--output-dir', outputDir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    const timer = setTimeout(() => {
      out.push(Buffer.from(`\n[run.mjs] the suite did not finish within ${SUITE_TIMEOUT_MS} ms; stopping it\n`));
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output: Buffer.concat(out).toString('utf8') });
    });
  });
}

/** One suite run against a fresh server; returns what went wrong (empty when all is well). */
async function runOne(run) {
  const bin = conformanceBin(run.pkg);
  const label = `${bin.name ?? run.pkg} ${bin.version} ${run.args.join(' ')}`;
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const serverLog = tail();
  const server = spawn(process.execPath, ['src/server.mjs'], {
    cwd: serverDir,
    env: { ...process.env, HOST, PORT: String(port), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', SHUTDOWN_DRAIN_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (d) => serverLog.push(d));
  server.stderr.on('data', (d) => serverLog.push(d));
  const onSignal = (signal) => {
    server.kill('SIGTERM');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const outputDir = mkdtempSync(join(tmpdir(), 'fa-mcp-conformance-'));
  const problems = [];
  try {
    await waitForHealth(base, server);
    console.log(`\n[conformance] ${label} against ${base}/mcp`);
    const started = Date.now();
    const suite = await runSuite(bin.path, run.args, `${base}/mcp`, outputDir);
    const scenarios = readScenarios(suite.output, outputDir);
    if (!scenarios) {
      console.log(suite.output);
      problems.push('the suite printed no summary');
    } else {
      const expectedSkips = run.expectedSkips ?? {};
      console.log(formatScenarios(scenarios, { expectedSkips, noChecks: run.noChecks }).join('\n'));
      const v = verdict(scenarios, { expected: run.expected, expectedSkips });
      const { passed, failed, skipped, noChecks, total } = v.counts;
      console.log(
        `\n[conformance] ${label}: ${total} scenarios: ${passed} passed (expected ${run.expected}), ${failed} failed, ` +
          `${skipped} skipped, ${noChecks} with no checks in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      problems.push(...v.problems);
      if (suite.code !== 0) problems.push(`the suite exited with ${suite.code ?? suite.signal}`);
    }
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const stop = await stopServer(server);
    if (stop.killed) problems.push(`the server did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
    else if (stop.code !== 0) problems.push(`the server exited with ${stop.code ?? stop.signal} after SIGTERM`);
    rmSync(outputDir, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    console.error(`\n[conformance] ${label} FAILED: ${problems.join('; ')}`);
    console.error('--- conformance server output (last lines) ---');
    console.error(serverLog.text());
  }
  return problems.map((p) => `${label}: ${p}`);
}

async function main() {
  if (!existsSync(join(root, 'packages', 'fa-mcp-sdk', 'dist', 'index.js'))) {
    console.error('[conformance] fa-mcp-sdk is not built; run `pnpm run build` first');
    return 1;
  }
  const problems = [];
  for (const run of RUNS) problems.push(...(await runOne(run)));
  if (problems.length > 0) {
    console.error(`\n[conformance] FAILED:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`\n[conformance] OK: ${RUNS.length} runs, every expected scenario passed (skips and scenarios with no checks are listed above)`);
  return 0;
}

process.exitCode = await main();
