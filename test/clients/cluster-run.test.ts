/**
 * `npm run cluster` (scripts/cluster/run.mjs) says what happens to its instances and logs every
 * failed request: two examples/demo instances on PostgreSQL behind HAProxy, driven as a user
 * would from another terminal (kill -9, kill -TERM, requests through HAProxy, Ctrl+C):
 * - an instance that exits is named in the terminal with its signal or exit code, and the list of
 *   running instances is printed again (the banner's list is not left stale);
 * - a call in flight on a killed instance, and every request HAProxy answers 503 once no instance
 *   is left, leaves a HAProxy log line: in the named log file and in the terminal;
 * - Ctrl+C stops everything, drops the database and keeps the log file.
 * Needs haproxy and PostgreSQL: in CI their absence fails; elsewhere the file skips with a reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { findHaproxy, LOCAL_PG_URL, pgAnswers, SERVED_BY, waitUntil } from '../../scripts/cluster/cluster.mjs';
import { parseHaproxyLine } from '../../scripts/cluster/haproxy-log.mjs';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';

const root = join(import.meta.dirname, '..', '..');
const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const BURST = 200;

type PgClient = { connect(): Promise<void>; query(sql: string, values?: unknown[]): Promise<{ rowCount: number | null }>; end(): Promise<void> };
const pg = createRequire(join(root, 'packages', 'fa-mcp-sdk', 'package.json'))('pg') as {
  Client: new (o: { connectionString: string; connectionTimeoutMillis: number }) => PgClient;
};
const ready =
  serviceAvailable(findHaproxy() !== undefined, 'haproxy', 'run scripts/ci/install-haproxy.sh as root, or set HAPROXY_BIN') &&
  serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'cluster-run-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS_2026 = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };

describe.runIf(ready)('npm run cluster says what happens to its instances', () => {
  let dir = '';
  let logFile = '';
  let run: ChildProcess;
  let out = '';
  let exit: Promise<number | null>;
  let mcpUrl = '';
  let database = '';
  const pids = new Map<string, number>();

  /** The terminal's lines from `from` on. */
  const lines = (from = 0) => out.slice(from).split('\n');
  const waitForOutput = (re: RegExp, from: number, what: string, timeoutMs = 30_000) =>
    waitUntil(() => re.exec(out.slice(from)) ?? undefined, timeoutMs, `${what}; the terminal said:\n${out.slice(from)}`);

  beforeAll(async () => {
    buildDemoDist();
    dir = mkdtempSync(join(tmpdir(), 'fa-mcp-cluster-run-'));
    logFile = join(dir, 'haproxy.log');
    run = spawn(process.execPath, ['scripts/cluster/run.mjs', '--instances', '2', '--port', '0', '--drain-ms', '700', '--log-file', logFile], {
      cwd: root,
      env: { ...process.env, DB_MAIN_URL: PG_URL },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    run.stdout?.on('data', (d) => (out += d));
    run.stderr?.on('data', (d) => (out += d));
    exit = new Promise((resolve) => run.once('exit', (code) => resolve(code)));
    await waitForOutput(/Ctrl\+C stops everything/, 0, 'the banner', 150_000);
    mcpUrl = /MCP endpoint \(through HAProxy\): (\S+)/.exec(out)?.[1] ?? '';
    database = /on database (\S+)/.exec(out)?.[1] ?? '';
    for (const m of out.matchAll(/^ {2}(mcp\d): \S+ \(pid (\d+)\)$/gm)) pids.set(m[1] as string, Number(m[2]));
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect([...pids.keys()]).toEqual(['mcp1', 'mcp2']);
    expect(out).toContain(`HAProxy logs every request to ${logFile}`);
  }, 180_000);

  afterAll(async () => {
    if (run && run.exitCode === null && run.signalCode === null) {
      run.kill('SIGINT');
      await exit;
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('kill -9 of the instance serving a call: the terminal names it with its signal and lists who is left; the failed call leaves a HAProxy line', async () => {
    // A call that streams its progress: its headers (X-Served-By) arrive while it runs on one instance.
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { ...HEADERS_2026, 'mcp-name': 'slow_report' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 50, stepMs: 200 }, _meta: { ...META_2026, progressToken: 'p' } } }),
    });
    const victim = res.headers.get(SERVED_BY) ?? '';
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/progress'); // in flight on `victim`
    const pid = pids.get(victim) as number;
    const survivor = victim === 'mcp1' ? 'mcp2' : 'mcp1';
    const from = out.length;
    process.kill(pid, 'SIGKILL');
    // The stream ends without the call's result.
    let body = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      body += new TextDecoder().decode(chunk.value);
    }
    expect(body).not.toContain('"result"');

    await waitForOutput(new RegExp(`${victim} \\(pid ${pid}\\) was killed by SIGKILL\\n.*instances running: 1 of 2\\n`), from, `the terminal to report ${victim}'s kill`);
    const after = lines(from);
    const listed = after.slice(after.findIndex((l) => l.includes('instances running: 1 of 2')) + 1).slice(0, 2);
    expect(listed[0]).toMatch(new RegExp(`^ {2}${survivor}: http://127\\.0\\.0\\.1:\\d+/mcp \\(pid ${pids.get(survivor)}\\)$`));
    expect(listed[1]).toMatch(new RegExp(`^ {2}${victim} \\(pid ${pid}\\) was killed by SIGKILL at \\d\\d:\\d\\d:\\d\\d$`));

    // HAProxy's line of the broken call (the server ended it: S...), in the file and in the terminal.
    const line = await waitUntil(
      () =>
        readFileSync(logFile, 'utf8')
          .split('\n')
          .find((l) => {
            const p = parseHaproxyLine(l);
            return p.kind === 'request' && p.server === victim && p.termination.startsWith('S') && p.request.startsWith('POST /mcp');
          }),
      30_000,
      `HAProxy to log the call broken on ${victim}`,
    );
    expect(parseHaproxyLine(line)).toMatchObject({ failed: true });
    await waitForOutput(new RegExp(`haproxy: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), from, 'the broken call in the terminal');
  }, 90_000);

  it('SIGTERM: the clean exit is reported; with no instance left, every request HAProxy refuses leaves a line', async () => {
    const left = [...pids.entries()].find(([name]) => out.includes(`  ${name}: http`) && !new RegExp(`${name} \\(pid \\d+\\) was killed`).test(out));
    const [name, pid] = left as [string, number];
    const from = out.length;
    process.kill(pid, 'SIGTERM');
    await waitForOutput(new RegExp(`${name} \\(pid ${pid}\\) exited with code 0 \\(a clean stop: it drained first\\)\\n.*instances running: 0 of 2 \\(HAProxy has no instance`), from, `the terminal to report ${name}'s exit`);

    // A burst of requests, each of its own path: every one is answered 503 and leaves its line.
    const statuses = await Promise.all(
      Array.from({ length: BURST }, (_, n) =>
        fetch(`${mcpUrl}?n=${n}`, { method: 'POST', headers: { ...HEADERS_2026, 'mcp-name': 'get_time' }, body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'get_time', arguments: {}, _meta: META_2026 } }) }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([503]));
    const logged = (text: string) => new Set([...text.matchAll(/ 503 \d+ .*"POST \/mcp\?n=(\d+) HTTP\/1\.1"/g)].map((m) => Number(m[1])));
    await waitUntil(() => logged(readFileSync(logFile, 'utf8')).size === BURST, 30_000, `all ${BURST} refused requests in ${logFile}`);
    await waitUntil(() => logged(out.slice(from)).size === BURST, 30_000, `all ${BURST} refused requests in the terminal`);
  }, 90_000);

  it('Ctrl+C stops HAProxy, drops the database and keeps the log file', async () => {
    run.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(out).toContain(`stopped; HAProxy's log is kept in ${logFile}`);
    expect(existsSync(logFile)).toBe(true);
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
    await c.connect();
    try {
      expect((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount).toBe(0);
    } finally {
      await c.end();
    }
  }, 60_000);
});
