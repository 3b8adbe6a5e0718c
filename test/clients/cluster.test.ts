/**
 * Three instances of examples/demo on one PostgreSQL behind a real HAProxy (round-robin, no
 * stickiness, health check on /ready), 30 sessions of the official SDK client (v2) calling
 * get_time and slow_report in a loop (scripts/cluster/cluster.mjs starts it all):
 * (a) every session is served by more than one instance (HAProxy's X-Served-By);
 * (b) kill -9 of one instance mid-load: only the calls in flight on it fail, each leaves a line in
 *     HAProxy's log, every session carries on, no acknowledged task is lost;
 * (c) a rolling restart of all three with SIGTERM (they drain), one at a time: zero failed calls
 *     (HAProxy tells clients its own keep-alive time, else a reused connection races its close);
 * (d) a resource update notified on one instance reaches subscribed sessions whose GET streams
 *     are held by the others.
 * Both eras: 2026-07-28 clients are per-request; 2025-11-25 sessions are restored by whichever
 * instance receives them (MCP_SESSIONS_STORE=postgres, set by scripts/cluster/cluster.mjs).
 * Needs haproxy and PostgreSQL: in CI their absence fails; elsewhere the file skips with a reason.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { assertSdkBuildIsCurrent } from '../../scripts/test-kit/sdk-build.mjs';
import {
  CLIENT_KEEP_ALIVE,
  createDatabase,
  findHaproxy,
  LOCAL_PG_URL,
  pgAnswers,
  restartInstance,
  SERVED_BY,
  sharedStateEnv,
  startCluster,
  waitUntil,
  type Cluster,
  type Instance,
} from '../../scripts/cluster/cluster.mjs';
import { parseHaproxyLine } from '../../scripts/cluster/haproxy-log.mjs';
import { createDemoServer } from '../../examples/demo/src/server.js';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';

type Era = '2025' | '2026';
const ERAS: Era[] = ['2026', '2025'];
const SESSIONS = 30;
const DRAIN_MS = 2_500; // above HAProxy's detection time: check every 300 ms, out after two failures
const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const CALL_TIMEOUT_MS = 20_000;

const haproxyBin = findHaproxy();
const ready =
  serviceAvailable(haproxyBin !== undefined, 'haproxy', 'run scripts/ci/install-haproxy.sh as root, or set HAPROXY_BIN') &&
  serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

interface Session {
  era: Era;
  client: Client;
  /** The instances that answered this session's requests. */
  servedBy: Set<string>;
}

interface CallRecord {
  session: number;
  started: number;
  ended?: number;
  ok?: boolean;
  error?: string;
}

let cluster: Cluster;
let db: { url: string; drop(): Promise<void> };
const open: Session[] = [];

async function openSession(era: Era, n: number, url = cluster.url): Promise<Session> {
  const servedBy = new Set<string>();
  const client = new Client({ name: `cluster-${era}-${n}`, version: '1.0.0' }, { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      const by = res.headers.get(SERVED_BY);
      if (by) servedBy.add(by);
      return res;
    },
  });
  await client.connect(transport);
  const session = { era, client, servedBy };
  open.push(session);
  return session;
}

const openSessions = (era: Era) => Promise.all(Array.from({ length: SESSIONS }, (_, n) => openSession(era, n)));

/** Every session calls get_time, and every fourth call slow_report (in flight for 300 ms), until stopped. */
function runLoad(sessions: Session[]) {
  const calls: CallRecord[] = [];
  let stopping = false;
  const loops = sessions.map(async (s, session) => {
    for (let n = 0; !stopping; n++) {
      const slow = n % 4 === 3;
      const rec: CallRecord = { session, started: Date.now() };
      calls.push(rec);
      try {
        const result = await s.client.callTool(
          slow ? { name: 'slow_report', arguments: { steps: 3, stepMs: 100 } } : { name: 'get_time', arguments: { timeZone: 'UTC' } },
          { timeout: CALL_TIMEOUT_MS },
        );
        rec.ok = result.isError !== true;
        if (!rec.ok) rec.error = JSON.stringify(result.content);
      } catch (err) {
        rec.ok = false;
        // undici's socket errors carry the socket (local port, bytes written and read): which connection, how far it got.
        const socket = err instanceof Error && err.cause instanceof Error ? (err.cause as { socket?: unknown }).socket : undefined;
        const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message}${socket ? ` ${JSON.stringify(socket)}` : ''})` : '';
        rec.error = `${err instanceof Error ? err.message : String(err)}${cause}`;
      }
      rec.ended = Date.now();
    }
  });
  const okOf = (session: number, after = 0) => calls.filter((c) => c.session === session && c.ok && (c.ended ?? 0) > after).length;
  return {
    calls,
    failed: () => calls.filter((c) => c.ok === false),
    /** Waits until every session has `n` successful calls that ended after `after`. */
    everySession: (n: number, after: number, timeoutMs: number) =>
      waitUntil(() => sessions.every((_, i) => okOf(i, after) >= n), timeoutMs, `every session to make ${n} calls`),
    inFlightAt: (t: number) => calls.filter((c) => c.started <= t && (c.ended === undefined || c.ended >= t)),
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** Waits until HAProxy routes to `inst` again (its check passed `rise` times). */
async function routedTo(inst: Instance): Promise<void> {
  await waitUntil(async () => {
    const res = await fetch(`${cluster.baseUrl}/health`).catch(() => undefined);
    await res?.arrayBuffer();
    return res?.headers.get(SERVED_BY) === inst.name;
  }, 30_000, `HAProxy to route to ${inst.name} again`);
}

async function closeSessions(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => s.client.close().catch(() => undefined)));
}

describe.runIf(ready)('three demo instances behind HAProxy on one PostgreSQL', () => {
  beforeAll(async () => {
    assertSdkBuildIsCurrent();
    buildDemoDist();
    db = await createDatabase(PG_URL, `fa_mcp_cluster_${randomBytes(4).toString('hex')}`);
    cluster = await startCluster({
      size: 3,
      dbUrl: db.url,
      drainMs: DRAIN_MS,
      checkMs: 300,
      ...(haproxyBin ? { haproxyBin } : {}),
      // Orphaned tasks are found within a few seconds, not the default half minute.
      // Every client comes from 127.0.0.1 (HAProxy): no rate limit, which would see one caller.
      env: { MCP_TASKS_LEASE_MS: '3000', MCP_TASKS_SWEEP_INTERVAL_MS: '1000', MCP_CAPABILITIES_SUBSCRIBE: 'true', MCP_RATE_LIMIT_ENABLED: 'false' },
      readyTimeoutMs: 60_000,
    });
  }, 180_000);

  afterAll(async () => {
    await closeSessions();
    await cluster?.stop();
    await db?.drop();
  }, 60_000);

  describe.each(ERAS)('clients of era %s', (era) => {
    it('(a) every session is served by more than one instance', async () => {
      const sessions = await openSessions(era);
      const load = runLoad(sessions);
      try {
        await load.everySession(6, 0, 60_000);
      } finally {
        await load.stop();
      }
      expect(load.failed()).toEqual([]);
      for (const s of sessions) expect(s.servedBy.size, `instances that served one session: ${[...s.servedBy].join(', ')}`).toBeGreaterThan(1);
      await closeSessions();
    }, 120_000);

    it('(b) kill -9 of one instance mid-load: only the calls in flight on it fail, every session carries on', async () => {
      const sessions = await openSessions(era);
      const load = runLoad(sessions);
      const victim = cluster.instances[1] as Instance;
      try {
        await load.everySession(2, 0, 60_000);
        const logFrom = cluster.haproxy.log().length;
        const killed = Date.now();
        await victim.kill();
        const dead = Date.now(); // the process is gone: no call that starts from here can reach it
        await load.everySession(3, dead, 60_000);
        await load.stop();
        const failed = load.failed();
        // Only calls that may have been in flight on it fail: none that began once it was gone (HAProxy sends a refused connection elsewhere).
        for (const f of failed) expect(f.started, `a call that began after the kill failed: ${f.error}`).toBeLessThanOrEqual(dead);
        const inFlight = load.calls.filter((c) => c.started <= dead && (c.ended === undefined || c.ended >= killed));
        expect(failed.length).toBeLessThanOrEqual(inFlight.length);
        // Every call that failed left a line in HAProxy's log (a request on the victim that did not end
        // cleanly): with keep-alive toward clients, HAProxy closed most of them silently and logged nothing.
        const brokenOnVictim = () =>
          cluster.haproxy
            .log()
            .slice(logFrom)
            .split('\n')
            .filter((l) => {
              const p = parseHaproxyLine(l);
              return p.kind === 'request' && p.server === victim.name && p.failed;
            });
        await waitUntil(() => brokenOnVictim().length >= failed.length, 10_000, 'a HAProxy line for each failed call').catch(() => undefined);
        const story = [...failed.map((f) => `${new Date(f.started).toISOString()} failed: ${f.error}`), ...brokenOnVictim()];
        expect(brokenOnVictim().length, story.join('\n')).toBeGreaterThanOrEqual(failed.length);
      } finally {
        await load.stop();
        victim.start();
        await victim.waitReady(60_000);
        await routedTo(victim);
        await closeSessions();
      }
    }, 180_000);

    it('(c) a rolling restart of all three with SIGTERM, one at a time: zero failed calls', { timeout: 300_000 }, async () => {
      const sessions = await openSessions(era);
      const load = runLoad(sessions);
      const timeline: string[] = [];
      const mark = (what: string) => timeline.push(`${new Date().toISOString()} ${what}`);
      try {
        await load.everySession(2, 0, 60_000);
        for (const inst of cluster.instances) {
          mark(`SIGTERM ${inst.name}`);
          await restartInstance(inst, 60_000);
          mark(`${inst.name} ready again`);
          await routedTo(inst);
          mark(`HAProxy routes to ${inst.name}`);
        }
        await load.everySession(2, Date.now(), 60_000);
      } finally {
        await load.stop();
        await closeSessions();
      }
      // On a failure: when each call failed against the restarts, and HAProxy's log lines of requests
      // that did not end cleanly (termination state other than ----).
      const failed = load.failed();
      const haproxyLines = cluster.haproxy.log().split('\n');
      const ports = failed.flatMap((f) => [...(f.error ?? '').matchAll(/"localPort":(\d+)/g)].map((m) => m[1] as string));
      const haproxyTrouble = [
        ...haproxyLines.filter((l) => / [A-Za-z-]{4} /.test(l) && !/ ---- /.test(l)).slice(-40),
        ...haproxyLines.filter((l) => ports.some((p) => l.includes(`:${p} `))).map((l) => `same client port: ${l}`),
      ];
      const story = [...failed.map((f) => `${new Date(f.started).toISOString()} call of session ${f.session} began, failed: ${f.error}`), ...timeline].sort();
      // Warnings and errors (JSON or pretty lines, with the stack lines after them) and the restart markers.
      const complaints = cluster.instances.flatMap((i) => {
        const lines = i.log().split('\n');
        const at = lines.flatMap((l, n) => (/"level":(40|50|60)|\b(WARN|ERROR|FATAL)\b|started again/.test(l) ? [n] : []));
        return at.slice(-12).flatMap((n) => lines.slice(n, n + (/started again/.test(lines[n] ?? '') ? 1 : 8)).map((l) => `${i.name}: ${l.slice(0, 600)}`));
      });
      expect(failed, [...story, ...haproxyTrouble, ...complaints].join('\n')).toEqual([]);
      expect(load.calls.length).toBeGreaterThan(SESSIONS * 4);
    });
  });

  it("clients are told HAProxy's own keep-alive time, not the instance's (else a POST races HAProxy closing an idle connection)", async () => {
    const keepAliveOf = async (url: string) => {
      const res = await fetch(url);
      await res.arrayBuffer();
      return res.headers.get('keep-alive');
    };
    const direct = cluster.instances[0] as Instance;
    expect(await keepAliveOf(`${direct.url}/health`)).toBe('timeout=65');
    const through = await keepAliveOf(`${cluster.baseUrl}/health`);
    const advertised = Number(/timeout=(\d+)/.exec(through ?? '')?.[1]);
    expect(advertised, `Keep-Alive through HAProxy: ${through}`).toBe(CLIENT_KEEP_ALIVE.advertisedSec);
    expect(advertised).toBeLessThan(CLIENT_KEEP_ALIVE.idleSec);
    expect(cluster.haproxy.config).toContain(`timeout http-keep-alive ${CLIENT_KEEP_ALIVE.idleSec}s`);
  });

  it('(b) no acknowledged task is lost when its instance is killed: another instance runs it again', async () => {
    // Created on one instance directly (so it surely runs on the victim), read back on a survivor.
    const victim = cluster.instances[2] as Instance;
    const survivor = cluster.instances[0] as Instance;
    const Created = z.object({ task: z.object({ taskId: z.string(), status: z.string() }) }).passthrough();
    const Task = z.object({ taskId: z.string(), status: z.string() }).passthrough();
    const on = await openSession('2025', 0, `${victim.url}/mcp`);
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        on.client.request({ method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 10, stepMs: 500 }, task: {} } }, Created).then((r) => r.task),
      ),
    );
    for (const t of created) expect(t.status).toBe('working'); // acknowledged: the client holds a task id
    await victim.kill();
    try {
      const reader = await openSession('2025', 1, `${survivor.url}/mcp`);
      const finals = await Promise.all(
        created.map((t) =>
          waitUntil(async () => {
            const got = await reader.client.request({ method: 'tasks/get', params: { taskId: t.taskId } }, Task);
            return got.status === 'completed' || got.status === 'failed' ? got : undefined;
          }, 60_000, `task ${t.taskId} to end on a survivor`),
        ),
      );
      // slow_report is idempotent: each is run again to completion, not failed.
      expect(finals.map((f) => f.status)).toEqual(created.map(() => 'completed'));
    } finally {
      await closeSessions();
      victim.start();
      await victim.waitReady(60_000);
      await routedTo(victim);
    }
  }, 180_000);

  it('(d) a resource update notified on one instance reaches subscribed sessions whose GET streams are held by the others', async () => {
    // The notifying instance is a fourth one on the same PostgreSQL, in this process and outside
    // the rotation, so no subscribed session's stream is held by it; it notifies through the
    // public API (handle.notifyResourceUpdated), which publishes on the LISTEN/NOTIFY bus.
    const notifier = await createDemoServer({
      handleSignals: false,
      env: { ...sharedStateEnv(db.url, 0), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', MCP_CAPABILITIES_SUBSCRIBE: 'true' },
    });
    try {
      const uri = 'demo://about';
      const received = new Set<number>();
      const sessions = await Promise.all(
        Array.from({ length: SESSIONS }, async (_, n) => {
          const s = await openSession('2025', n);
          s.client.setNotificationHandler('notifications/resources/updated', (note) => {
            if (note.params.uri === uri) received.add(n);
          });
          await s.client.subscribeResource({ uri });
          return s;
        }),
      );
      expect(sessions.every((s) => s.servedBy.size > 0)).toBe(true);
      // Notified again until every session saw one: a GET stream may still be connecting when the first goes out.
      await waitUntil(async () => {
        await notifier.notifyResourceUpdated(uri);
        return received.size === SESSIONS;
      }, 15_000, 'every subscribed session to get notifications/resources/updated');
    } finally {
      await closeSessions();
      await notifier.stop('test finished');
    }
  }, 180_000);
});
