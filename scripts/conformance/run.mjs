#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, a
// root devDependency) against examples/conformance-server. Builds nothing: the
// workspace must be built (`pnpm run build`). Starts the server on a free port
// of 127.0.0.1, waits for /health, runs `conformance server --suite all`, prints
// the summary, stops the server with SIGTERM, and exits non-zero when a check
// fails, fewer scenarios pass than expected, or the server does not stop cleanly.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Scenarios of `--suite all` in @modelcontextprotocol/conformance 0.1.16; all must pass. */
const EXPECTED_PASSED = 32;
const HOST = '127.0.0.1';
const STARTUP_TIMEOUT_MS = 30_000;
const SUITE_TIMEOUT_MS = 10 * 60_000;
const STOP_TIMEOUT_MS = 20_000;

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverDir = join(root, 'examples', 'conformance-server');
const loader = pathToFileURL(join(here, 'globsync-loader.mjs')).href;

function conformanceBin() {
  const require = createRequire(join(root, 'package.json'));
  const pkgPath = require.resolve('@modelcontextprotocol/conformance/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.conformance;
  return { path: join(dirname(pkgPath), bin), version: pkg.version };
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

function runSuite(bin, url, outputDir) {
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(
      process.execPath,
      ['--import', loader, bin, 'server', '--url', url, '--suite', 'all', '--output-dir', outputDir],
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

/** Parses "✓ name: N passed, M failed" lines of the suite's summary. */
function parseSummary(output) {
  const start = output.indexOf('=== SUMMARY ===');
  if (start < 0) return undefined;
  const text = output.slice(start).trimEnd();
  const scenarios = [];
  for (const m of text.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    scenarios.push({ name: m[1], passed: Number(m[2]), failed: Number(m[3]) });
  }
  return { text, scenarios };
}

/** The suite names its result folders `server-<scenario>-<ISO time with - for : and .>`. */
const scenarioOf = (dir) => dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');

/** FAILURE checks from the suite's output directory (one checks.json per scenario). */
function failedChecks(outputDir) {
  const failures = [];
  for (const entry of existsSync(outputDir) ? readdirSync(outputDir) : []) {
    const file = join(outputDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    for (const check of JSON.parse(readFileSync(file, 'utf8'))) {
      if (check.status === 'FAILURE') failures.push({ scenario: scenarioOf(entry), name: check.name, error: check.errorMessage ?? check.description });
    }
  }
  return failures;
}

async function main() {
  if (!existsSync(join(root, 'packages', 'fa-mcp-sdk', 'dist', 'index.js'))) {
    console.error('[conformance] fa-mcp-sdk is not built; run `pnpm run build` first');
    return 1;
  }
  const bin = conformanceBin();
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const serverLog = tail();
  const server = spawn(process.execPath, ['src/server.mjs'], {
    cwd: serverDir,
    env: { ...process.env, HOST, PORT: String(port), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
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
    console.log(`[conformance] @modelcontextprotocol/conformance ${bin.version} against ${base}/mcp (--suite all)`);
    const started = Date.now();
    const suite = await runSuite(bin.path, `${base}/mcp`, outputDir);
    const summary = parseSummary(suite.output);
    if (!summary) {
      console.log(suite.output);
      problems.push('the suite printed no summary');
    } else {
      console.log(summary.text);
      const passed = summary.scenarios.filter((s) => s.failed === 0).length;
      const failedCount = summary.scenarios.reduce((n, s) => n + s.failed, 0);
      console.log(`\n[conformance] ${passed} of ${summary.scenarios.length} scenarios passed (expected ${EXPECTED_PASSED}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (failedCount > 0) problems.push(`${failedCount} check(s) failed`);
      if (passed < EXPECTED_PASSED) problems.push(`${passed} scenarios passed, expected ${EXPECTED_PASSED}`);
    }
    if (suite.code !== 0) problems.push(`the suite exited with ${suite.code ?? suite.signal}`);
    for (const f of failedChecks(outputDir)) console.log(`  FAILED ${f.scenario}: ${f.name}: ${f.error}`);
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
    console.error(`\n[conformance] FAILED: ${problems.join('; ')}`);
    console.error('--- conformance server output (last lines) ---');
    console.error(serverLog.text());
    return 1;
  }
  console.log('[conformance] OK');
  return 0;
}

process.exitCode = await main();
