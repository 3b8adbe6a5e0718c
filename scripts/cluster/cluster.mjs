// A small cluster on one machine: N instances of a server (examples/demo's built
// dist/start.js by default) on free 127.0.0.1 ports, all on one PostgreSQL, behind
// a real HAProxy (round-robin, no stickiness, health check on /ready so a draining
// instance leaves the rotation). Used by `npm run cluster` (scripts/cluster/run.mjs),
// the cluster test (test/clients/cluster.test.ts) and the cluster bench (scripts/bench/cluster.mjs).
// Every wait has a deadline; nothing here sleeps for a fixed time to decide anything.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// pg is the library's dependency: resolved from there (the workspace root does not depend on it).
const pg = createRequire(join(root, 'packages', 'fa-mcp-sdk', 'package.json'))('pg');
const DEMO_ROOT = join(root, 'examples', 'demo');
export const DEMO_ENTRY = join(DEMO_ROOT, 'dist', 'start.js');
/** The local PostgreSQL scripts/ci/start-postgres.sh provides (FA_MCP_TEST_PG_URL overrides it in tests). */
export const LOCAL_PG_URL = 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';
/** The response header HAProxy adds: the name of the instance that answered. */
export const SERVED_BY = 'x-served-by';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds examples/demo's dist/ (tsc) when it is missing or older than a source file; answers DEMO_ENTRY. */
export function ensureDemoDist(log = () => undefined) {
  if (!existsSync(DEMO_ENTRY) || statSync(DEMO_ENTRY).mtimeMs < newestMtime(join(DEMO_ROOT, 'src'))) {
    log('building examples/demo ...');
    const tsc = createRequire(join(DEMO_ROOT, 'package.json')).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', DEMO_ROOT], { stdio: 'pipe', timeout: 120_000 });
  }
  return DEMO_ENTRY;
}

/** The haproxy binary: HAPROXY_BIN, `haproxy` on PATH, or Debian's /usr/sbin/haproxy; undefined when none. */
export function findHaproxy(env = process.env) {
  if (env.HAPROXY_BIN) return existsSync(env.HAPROXY_BIN) ? env.HAPROXY_BIN : undefined;
  const which = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  return existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : undefined;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` (sync or async, truthy = done) every 50 ms until `timeoutMs`; throws with `what` after. */
export async function waitUntil(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The HTTP status of GET `url` (no keep-alive), or 0 when nothing answers. */
export async function statusOf(url, timeoutMs = 2_000) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Whether the PostgreSQL of `url` answers (within `timeoutMs`). */
export async function pgAnswers(url, timeoutMs = 3_000) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** The rows `sql` answers on the PostgreSQL of `url` (one connection, closed after). */
export async function pgRows(url, sql, values = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, values)).rows;
  } finally {
    await c.end();
  }
}

/** Creates a database of its own on the PostgreSQL of `adminUrl`; answers its URL and a drop(). */
export async function createDatabase(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Keep-alive between clients and HAProxy. An instance answers `Keep-Alive: timeout=65`
 * (webServer.timeouts.keepAliveMs, above the balancer's idle time toward it) and HAProxy passes
 * that header on, while it closes an idle client connection after its own `timeout
 * http-keep-alive`. A client that believes 65 s (Node's fetch does) sends its next request on a
 * connection HAProxy is closing, and a POST fails with "other side closed" (it is not retried).
 * So the frontend states its own idle time, with a margin for a busy client.
 */
export const CLIENT_KEEP_ALIVE = { idleSec: 10, advertisedSec: 5 };

/**
 * The HAProxy configuration: one frontend on `listenPort`, round-robin over `servers`
 * ({ name, port }) with no stickiness, a health check on GET /ready (a draining instance
 * answers 503 and leaves the rotation within about `checkMs` x `fall`), a connection that fails
 * tried again on another instance, the instance's name in X-Served-By, timeouts long
 * enough for SSE streams, and clients told HAProxy's own keep-alive (see CLIENT_KEEP_ALIVE).
 * It logs every request (`option httplog`, normal ones included: no `dontlog-normal`) and every
 * change a health check sees, to its stdout, which startHaproxy() sends to a file.
 */
export function haproxyConfig({ listenPort, servers, checkMs = 500, fall = 2, rise = 2, host = '127.0.0.1' }) {
  return [
    'global',
    '  maxconn 4096',
    '  log stdout format raw local0 info',
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option log-health-checks',
    '  timeout connect 2s',
    // SSE streams (GET streams, legacy SSE, a long call's stream) stay open without traffic.
    '  timeout client 10m',
    '  timeout server 10m',
    `  timeout http-keep-alive ${CLIENT_KEEP_ALIVE.idleSec}s`,
    '  timeout http-request 15s',
    // A busy instance may take a while to answer /ready: slow is not down.
    '  timeout check 3s',
    // A connection refused (an instance just died, not yet seen by the check) goes to another one.
    '  retries 2',
    '  option redispatch 1',
    '  option forwardfor',
    '',
    'frontend mcp',
    `  bind ${host}:${listenPort}`,
    // One request per client connection. On a kept-alive client connection, a request after the
    // first whose instance dies before answering is closed silently (so that a browser may retry),
    // and HAProxy logs nothing for it: in the cluster test, 11 of 12 failed calls left no line.
    // The first request of a connection gets a 502 and a line (SH--): every request is a first one.
    '  option httpclose',
    // The instances' own hint (Keep-Alive: timeout=65) would reach the client otherwise.
    `  http-response set-header Keep-Alive timeout=${CLIENT_KEEP_ALIVE.advertisedSec}`,
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /ready',
    '  http-check expect status 200',
    '  http-response set-header X-Served-By %[srv_name]',
    `  default-server inter ${checkMs}ms fall ${fall} rise ${rise}`,
    ...servers.map((s) => `  server ${s.name} ${s.host ?? '127.0.0.1'}:${s.port} check`),
    '',
  ].join('\n');
}

/** Checks a configuration with `haproxy -c`; answers { ok, output }. */
export function checkHaproxyConfig(text, bin = findHaproxy()) {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-haproxy-'));
  try {
    const file = join(dir, 'haproxy.cfg');
    writeFileSync(file, text);
    const res = spawnSync(bin, ['-c', '-f', file], { encoding: 'utf8' });
    return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts haproxy in the foreground (-db) with `config`; answers { url, port, child, config, logFile,
 * log(), exited(), stop() }. Its stdout and stderr (the log: a line per request and per health check
 * change; its warnings) go to `logFile` (default: a file in its temporary directory, removed by
 * stop()). A file, not a pipe: HAProxy writes its log without blocking and drops the lines a pipe
 * cannot take at once (2,000 refused requests behind a pipe whose reader paused a few seconds left 462).
 * `onExit({ code, signal, requested })` is called when it exits (`requested`: stop() asked it to).
 */
export async function startHaproxy({ config, port, bin = findHaproxy(), timeoutMs = 10_000, logFile, onExit }) {
  if (!bin) throw new Error('haproxy is not installed (scripts/ci/install-haproxy.sh installs it)');
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const logPath = logFile ?? join(dir, 'haproxy.log');
  const fd = openSync(logPath, 'a');
  let child;
  try {
    child = spawn(bin, ['-f', file, '-db'], { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
  let requested = false;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      onExit?.({ code, signal, requested });
      resolve(code ?? signal);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${log()}`);
    return (await statusOf(`${url}/health`)) !== 0;
  }, timeoutMs, 'haproxy to listen');
  return {
    url,
    port,
    child,
    config,
    logFile: logPath,
    log,
    exited: () => exited,
    async stop() {
      requested = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One instance of the server as a child process on `port`. `env` is added to a
 * minimal environment (PATH, HOME). Answers a handle: waitReady(), stop(signal) (resolves
 * once it exited), kill() (SIGKILL), start() again on the same port, log() (every run's, the last 200 KB).
 * `onExit(inst, { pid, code, signal, requested })` is called each time its process exits
 * (`requested`: the signal stop() or kill() sent, undefined when something else ended it).
 */
export function createInstance({ name, port, entry = DEMO_ENTRY, env = {}, onExit }) {
  let child;
  let exited;
  let requested;
  let log = '';
  const url = `http://127.0.0.1:${port}`;
  const inst = {
    name,
    port,
    url,
    get pid() {
      return child?.pid;
    },
    get running() {
      return !!child && child.exitCode === null && child.signalCode === null;
    },
    log: () => log,
    start() {
      // Kept across restarts (a marker between runs): what a stopped run said is part of the story.
      if (log) log += `\n--- ${name} started again at ${new Date().toISOString()}\n`;
      requested = undefined;
      const proc = spawn(process.execPath, [entry], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, HOST: '127.0.0.1', PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      proc.stdout.on('data', (d) => (log = (log + d).slice(-200_000)));
      proc.stderr.on('data', (d) => (log = (log + d).slice(-200_000)));
      // 'close', not 'exit': the last lines it wrote are in log() when onExit runs.
      exited = new Promise((resolve) =>
        proc.once('close', (code, signal) => {
          onExit?.(inst, { pid: proc.pid, code, signal, requested });
          resolve(code ?? signal);
        }),
      );
      return inst;
    },
    /** Waits until /ready answers 200 (throws with the log when the process exits or the deadline passes). */
    async waitReady(timeoutMs = 30_000) {
      await waitUntil(async () => {
        if (!inst.running) throw new Error(`${name} exited before it was ready:\n${log.slice(-4000)}`);
        return (await statusOf(`${url}/ready`)) === 200;
      }, timeoutMs, `${name} to be ready`);
      return inst;
    },
    /** Sends `signal` and resolves with the exit code (or signal) once the process is gone. */
    async stop(signal = 'SIGTERM') {
      if (!inst.running) return exited;
      requested = signal;
      child.kill(signal);
      return exited;
    },
    kill: () => inst.stop('SIGKILL'),
    exited: () => exited,
  };
  return inst;
}

/** What became of an instance's process, in words: "mcp2 (pid 123) was killed by SIGKILL". */
export function describeExit(name, { pid, code, signal, requested }) {
  const what = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const why = requested ? ` (${requested} sent by the cluster)` : signal || code !== 0 ? '' : ' (a clean stop: it drained first)';
  return `${name} (pid ${pid}) ${what}${why}`;
}

/** The environment that makes every instance share one PostgreSQL (sessions, tasks, events, the bus). */
export function sharedStateEnv(dbUrl, drainMs) {
  return {
    DB_MAIN_URL: dbUrl,
    MCP_SESSIONS_STORE: 'postgres',
    MCP_TASKS_ENABLED: 'true',
    MCP_TASKS_STORE: 'postgres',
    MCP_NOTIFICATIONS_BUS: 'postgres',
    MCP_EVENTS_STORE: 'postgres',
    SHUTDOWN_DRAIN_MS: String(drainMs),
  };
}

/**
 * Starts `size` instances (each waited for on /ready) and HAProxy in front of them.
 * `drainMs` should exceed the balancer's detection time (checkMs x fall); `haproxyPort` 0 takes a
 * free port; `haproxyLogFile`: where HAProxy's log goes (default: a temporary file, removed by
 * stop()); `onInstanceExit(inst, exit)` and `onHaproxyExit(exit)`: see createInstance() and
 * startHaproxy(). Answers
 * { url (the MCP endpoint through HAProxy), baseUrl, instances, haproxy, stop() }.
 */
export async function startCluster({ size = 3, dbUrl, drainMs = 3_000, checkMs = 300, env = {}, entry = DEMO_ENTRY, haproxyBin = findHaproxy(), readyTimeoutMs = 30_000, haproxyPort = 0, haproxyLogFile, onInstanceExit, onHaproxyExit }) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the demo first (pnpm --filter fa-mcp-demo build)`);
  const instances = [];
  let haproxy;
  const stop = async () => {
    await haproxy?.stop();
    await Promise.all(instances.map((i) => i.stop('SIGTERM')));
  };
  try {
    for (let n = 1; n <= size; n++) {
      instances.push(createInstance({ name: `mcp${n}`, port: await freePort(), entry, env: { LOG_LEVEL: 'warn', ...sharedStateEnv(dbUrl, drainMs), ...env }, onExit: onInstanceExit }).start());
    }
    await Promise.all(instances.map((i) => i.waitReady(readyTimeoutMs)));
    const port = haproxyPort || (await freePort());
    haproxy = await startHaproxy({ config: haproxyConfig({ listenPort: port, servers: instances, checkMs }), port, bin: haproxyBin, logFile: haproxyLogFile, onExit: onHaproxyExit });
    // Every instance in the rotation before anyone uses the cluster.
    await waitUntil(async () => {
      const seen = new Set();
      for (let i = 0; i < size * 3; i++) {
        const res = await fetch(`${haproxy.url}/health`).catch(() => undefined);
        if (res) seen.add(res.headers.get(SERVED_BY));
        await res?.arrayBuffer();
      }
      return seen.size === size;
    }, readyTimeoutMs, 'haproxy to route to every instance');
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `${haproxy.url}/mcp`, baseUrl: haproxy.url, instances, haproxy, stop };
}

/** Stops `inst` with SIGTERM (it drains), starts it again on its port and waits until it is ready. */
export async function restartInstance(inst, readyTimeoutMs = 30_000) {
  await inst.stop('SIGTERM');
  inst.start();
  await inst.waitReady(readyTimeoutMs);
}
