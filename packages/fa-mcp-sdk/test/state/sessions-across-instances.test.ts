/**
 * 2025-era sessions shared through PostgreSQL (`mcp.sessions.store: postgres`):
 * three instances on one schema, the official SDK client sending each request to
 * the next instance in turn (round-robin, no stickiness). A session initialized
 * on A is served on B and C (calls on the SDK path and on the session fast path,
 * lists, prompts, resources, subscribe, logging/setLevel), its GET stream on B
 * gets what is published on C exactly once, DELETE anywhere ends it everywhere,
 * another subject gets the 404 of an unknown id, idle expiry is decided from the
 * stored last seen, and a GET stream reconnected to another instance with
 * Last-Event-ID gets what it missed. The memory default keeps today's 404.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, type McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import {
  asJsonRpcError, initializeRequest, LEGACY_PROTOCOL_VERSION, MCP_ACCEPT, nodeRequest, onTaskStatus, parseSseMessages, postMcp, serverUrl, startTestServer, stopAllServers, waitFor,
} from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { clusterClient } from './cluster-client.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('sessions_share');
});
afterAll(async () => {
  await db?.drop();
});
afterEach(stopAllServers);

const ALICE = 'alice-token-0123456789abcdefghijklmnopqrstuvwxyz';
const BOB = 'bob-token-0123456789abcdefghijklmnopqrstuvwxyz012';

type Plain = Record<string, unknown>;
const shared = (mcp: Plain = {}, extra: Plain = {}): Plain => ({
  mcp: {
    notifications: { bus: 'postgres' },
    resumability: { store: 'postgres' },
    ...mcp,
    sessions: { store: 'postgres', ...((mcp.sessions as Plain | undefined) ?? {}) },
  },
  db: { postgres: { dbs: { main: { url: db.url, poolSize: 3 } } } },
  ...extra,
});

const startThree = (config: Plain) => Promise.all([0, 1, 2].map(() => startTestServer(fixtureServerData(), config)));

const sessionHeaders = (id: string, extra: Record<string, string> = {}) => ({ 'mcp-session-id': id, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION, ...extra });

async function openRaw(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const init = await postMcp(url, initializeRequest(), headers);
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const initialized = await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(id, headers));
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: ${initialized.status}`);
  return id;
}

let nextId = 100;
const echo = (url: URL, id: string, headers: Record<string, string> = {}) =>
  postMcp(url, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, sessionHeaders(id, headers));

function expectNotFound(res: { status: number; json?: unknown; text: string }, what: string): void {
  expect(res.status, what).toBe(404);
  expect(asJsonRpcError(res.json ?? JSON.parse(res.text)).error.message, what).toBe('Session not found or expired');
}

const row = async (id: string) => (await db.pool.query('SELECT * FROM fa_mcp_sessions WHERE id = $1', [id])).rows[0] as Plain | undefined;

/** Events kept for the session's GET stream (the PostgreSQL event store). */
const keptEvents = async (id: string) =>
  ((await db.pool.query('SELECT count(*)::int AS n FROM fa_mcp_events WHERE stream_id = $1', [`${id}/_GET_stream`])).rows[0] as { n: number }).n;

/** Reconnects the session's GET stream at `url` with Last-Event-ID; returns its first event. */
async function resumeOn(url: URL, id: string, lastEventId: string): Promise<string> {
  const resumed = await fetch(url, { headers: { accept: MCP_ACCEPT, 'last-event-id': lastEventId, ...sessionHeaders(id) }, signal: AbortSignal.timeout(10_000) });
  expect(resumed.status).toBe(200);
  const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return text;
}

/** After the awaited notifications arrived: a moment for a duplicate that should not arrive (a negative check). */
const settle = () => new Promise((r) => setTimeout(r, 400));

describe.each([
  { responseMode: 'sse', fastPath: true },
  { responseMode: 'json', fastPath: true },
  { responseMode: 'sse', fastPath: false },
] as const)('mcp.sessions.store: postgres, responseMode $responseMode, fastPath $fastPath', ({ responseMode, fastPath }) => {
  it('a session initialized on A is served on B and C, request after request, round-robin', async () => {
    const handles = await startThree(shared({ responseMode, fastPath }));
    const logs: string[] = [];
    const { client, served } = await clusterClient(handles, {
      setup: (c) => c.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.level))),
    });
    const sessionId = client.transport?.sessionId as string;
    expect(sessionId).toBeTruthy();

    for (let i = 0; i < 3; i++) {
      const call = await client.callTool({ name: 'echo', arguments: { text: `hi ${i}` } });
      expect(call.structuredContent).toEqual({ echoed: `hi ${i}` });
      const who = await client.callTool({ name: 'whoami', arguments: { tag: String(i) } });
      expect((who.structuredContent as Plain).sessionId).toBe(sessionId);
    }
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    expect(JSON.stringify((await client.getPrompt({ name: 'greet', arguments: { name: 'Ann' } })).messages)).toContain('Hello, Ann!');
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('test://static');
    expect((await client.readResource({ uri: 'test://static' })).contents[0]).toMatchObject({ text: 'static text' });
    await client.subscribeResource({ uri: 'test://watched' });
    await client.setLoggingLevel('warning');
    // Every instance served the session, each holding a copy of it.
    for (const [i, count] of served.entries()) expect(count, `requests served by instance ${i}`).toBeGreaterThan(2);
    for (const h of handles) expect(h.http?.mcp.sessions.peek(sessionId)).toBeDefined();
    // Calls on the restored copies took the session fast path when it is on (the SDK path otherwise).
    for (const h of handles.slice(1)) {
      const fastCalls = h.http?.fastLane().sessionCalls ?? 0;
      if (fastPath) expect(fastCalls).toBeGreaterThan(0);
      else expect(fastCalls).toBe(0);
    }

    const stored = await row(sessionId);
    expect(stored).toMatchObject({ protocol_version: LEGACY_PROTOCOL_VERSION, log_level: 'warning', subscriptions: ['test://watched'] });
    expect((stored?.initialize as Plain).clientInfo).toEqual({ name: 'cluster-client', version: '1.0.0' });

    if (responseMode === 'sse') {
      // The log level set on one instance holds on every other: calls on each drop the info and debug logs.
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'log_during_call', arguments: { message: 'quiet' } });
      expect(logs).toEqual([]);
      await client.setLoggingLevel('debug');
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'log_during_call', arguments: { message: 'loud' } });
      expect(logs).toEqual(['info', 'debug', 'info', 'debug', 'info', 'debug']);
    }
    await client.close();
  });

  it('the GET stream on B receives, exactly once, the resource update and list change published on C', async () => {
    const handles = await startThree(shared({ responseMode, fastPath }));
    const [, b, c] = handles as [McpServerHandle, McpServerHandle, McpServerHandle];
    const seen: string[] = [];
    const { client } = await clusterClient(handles, {
      getTo: 1,
      setup: (cl) => {
        cl.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
        cl.setNotificationHandler('notifications/tools/list_changed', () => void seen.push('tools'));
      },
    });
    const sessionId = client.transport?.sessionId as string;
    await client.subscribeResource({ uri: 'test://watched' });
    await client.listTools(); // every instance holds a copy now
    await waitFor(() => b.http?.mcp.sessions.peek(sessionId)?.shared?.holdsStream, 5_000, 'the GET stream to open on B');
    await waitFor(() => handles.every((h) => h === b || h.http?.mcp.sessions.peek(sessionId)?.shared?.holdsStream === false), 5_000, 'A and C to hear of it');

    await c.notifyResourceUpdated('test://watched');
    await c.notifyResourceUpdated('test://static'); // not subscribed
    await c.notifyListChanged('tools');
    await waitFor(() => seen.length >= 2, 10_000, 'the notifications on the GET stream');
    await settle();
    // Each once (the two travel separately, in either order).
    expect([...seen].sort()).toEqual(['tools', 'updated test://watched']);
    await client.close();
  });
});

describe('mcp.sessions.store: postgres', () => {
  it('task status and logs of background work, sent by the instance running the task, reach the GET stream on B once', async () => {
    const taskData = fixtureServerData({
      tools: [
        {
          name: 'report_in_background',
          description: 'Logs from inside a task, then finishes.',
          inputSchema: { type: 'object' },
          execution: { taskSupport: 'optional' },
          handler: async ({ client }) => {
            await client.log('warning', 'from the task');
            return { content: [{ type: 'text', text: 'done' }] };
          },
        },
      ],
    });
    const config = shared({ responseMode: 'sse', tasks: { enabled: true, store: 'postgres', pollIntervalMs: 50 } });
    const handles = await Promise.all([0, 1, 2].map(() => startTestServer(taskData, config)));
    const [, b] = handles as [McpServerHandle, McpServerHandle, McpServerHandle];
    const statuses: string[] = [];
    const logs: string[] = [];
    // Requests go to A and C only; the GET stream to B.
    const { client } = await clusterClient(handles, {
      getTo: 1,
      postTo: [0, 2],
      setup: (c) => {
        onTaskStatus(c, (params) => void statuses.push(String(params.status)));
        c.setNotificationHandler('notifications/message', (n) => void logs.push(JSON.stringify(n.params.data)));
      },
    });
    const sessionId = client.transport?.sessionId as string;
    await client.listTools();
    await waitFor(() => b.http?.mcp.sessions.peek(sessionId)?.shared?.holdsStream, 5_000, 'the GET stream to open on B');
    await waitFor(() => handles.every((h) => h === b || !h.http?.mcp.sessions.peek(sessionId)?.shared?.holdsStream), 5_000, 'A and C to hear of it');
    await client.request({ method: 'tools/call', params: { name: 'report_in_background', arguments: {}, task: { ttl: 60_000 } } }, z.object({ task: z.object({ taskId: z.string() }).passthrough() }));
    await waitFor(() => statuses.includes('completed') && logs.length >= 1, 10_000, 'the status and the log on the GET stream');
    await settle();
    expect(statuses.filter((s) => s === 'completed')).toHaveLength(1);
    expect(logs).toEqual([JSON.stringify('from the task')]);
    await client.close();
  });

  it('DELETE on C ends the session everywhere: A and B answer 404, the row is gone', async () => {
    const [a, b, c] = (await startThree(shared({ responseMode: 'json' }))).map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    expect((await echo(b, id)).status).toBe(200);
    expect((await echo(a, id)).status).toBe(200);
    const deleted = await nodeRequest(c, { method: 'DELETE', headers: { host: c.host, ...sessionHeaders(id) } });
    expect(deleted.status).toBe(200);
    expect(await row(id)).toBeUndefined();
    expectNotFound(await echo(a, id), 'POST on A after DELETE on C');
    expectNotFound(await echo(b, id), 'POST on B after DELETE on C');
    expectNotFound(await echo(c, id), 'POST on C after DELETE on C');
  });

  it('a session outlives the instance that opened it: stopped A, the session carries on through B and C', async () => {
    const handles = await startThree(shared({ responseMode: 'json' }));
    const [a, b] = handles.map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    expect((await echo(b, id)).status).toBe(200);
    await handles[0]?.stop('rolling restart');
    expect(await row(id)).toBeDefined();
    expect((await echo(b, id)).status).toBe(200);
    expect((await echo(serverUrl(handles[2] as McpServerHandle), id)).status).toBe(200);
  });

  it('a copy evicted at the cap of one instance closes there only: the session carries on elsewhere', async () => {
    const handles = await startThree(shared({ responseMode: 'json', sessions: { maxPerCaller: 1 } }));
    const [a, b] = handles.map(serverUrl) as [URL, URL, URL];
    const first = await openRaw(a);
    expect((await echo(b, first)).status).toBe(200);
    await openRaw(b); // the same caller (this address) past B's cap: B's copy of `first` makes room
    expect(handles[1]?.http?.mcp.sessions.peek(first)).toBeUndefined();
    expect(await row(first)).toBeDefined();
    expect((await echo(a, first)).status).toBe(200);
  });

  it('another subject gets exactly the 404 of an unknown id on an instance that never saw the session', async () => {
    const auth = { webServer: { auth: { enabled: true, permanentServerTokens: [ALICE, BOB] } } };
    const [a, b] = (await startThree(shared({ responseMode: 'json' }, auth))).map(serverUrl) as [URL, URL, URL];
    const alice = { authorization: `Bearer ${ALICE}` };
    const bob = { authorization: `Bearer ${BOB}` };
    const id = await openRaw(a, alice);
    const unknown = await echo(b, '00000000-0000-4000-8000-000000000000', bob);
    expectNotFound(unknown, 'an unknown id');
    const stolen = await echo(b, id, bob);
    expectNotFound(stolen, 'POST by another subject');
    expect(stolen.text).toBe(unknown.text);
    expectNotFound(await nodeRequest(b, { method: 'DELETE', headers: { host: b.host, ...bob, ...sessionHeaders(id) } }), 'DELETE by another subject');
    expect((await echo(b, id, alice)).status).toBe(200);
    expect(await row(id)).toBeDefined();
  });

  it('restores a session once however many requests miss on one instance together', async () => {
    const handles = await startThree(shared({ responseMode: 'json' }));
    const [a, b] = handles.map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    const replies = await Promise.all(Array.from({ length: 8 }, () => echo(b, id)));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(handles[1]?.http?.mcp.sessions.size).toBe(1);
    expect(handles[1]?.http?.mcp.share?.restored).toBe(1);
    expect((await echo(b, id)).status).toBe(200);
    expect(handles[1]?.http?.mcp.share?.restored).toBe(1);
  });

  it('idle timeout follows the stored last seen: A keeps a session B uses, then it expires everywhere', async () => {
    const handles = await startThree(shared({ responseMode: 'json', sessions: { idleTimeoutMs: 1000 } }));
    const [a, b] = handles.map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    // Used on B only, for longer than the idle timeout (and A's sweeps, every second, see it idle locally).
    const until = Date.now() + 2600;
    while (Date.now() < until) {
      expect((await echo(b, id)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(handles[0]?.http?.mcp.sessions.peek(id), 'A kept its copy').toBeDefined();
    expect((await echo(a, id)).status).toBe(200);
    // Nobody uses it now: it expires on every instance and its row goes.
    await waitFor(async () => (await row(id)) === undefined && handles.every((h) => !h.http?.mcp.sessions.peek(id)), 10_000, 'the session to expire');
    expectNotFound(await echo(a, id), 'POST on A after expiry');
    expectNotFound(await echo(b, id), 'POST on B after expiry');
  });

  it('a GET stream reconnected to another instance with Last-Event-ID gets what it missed', async () => {
    const handles = await startThree(shared({ responseMode: 'sse' }));
    const [, , c] = handles;
    const [a, b] = handles.map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    expect((await postMcp(a, { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'test://watched' } }, sessionHeaders(id))).status).toBe(200);

    // The stream on B: one update arrives, then the client goes away.
    const gone = new AbortController();
    const stream = await fetch(b, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) }, signal: gone.signal });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await waitFor(() => handles[1]?.http?.mcp.sessions.peek(id)?.shared?.holdsStream, 5_000, 'B to hold the stream');
    await waitFor(() => handles[0]?.http?.mcp.sessions.peek(id)?.shared?.holdsStream === false, 5_000, 'A to hear of it');
    await c?.notifyResourceUpdated('test://watched');
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const lastEventId = /^id: (.+)$/m.exec(text)?.[1] as string;
    expect(lastEventId).toBeTruthy();
    gone.abort();
    await reader.cancel().catch(() => undefined);

    // Missed while no stream was open, then resumed on A.
    await c?.notifyResourceUpdated('test://watched');
    // B, holding the session's stream (none open now), keeps it in the event store.
    await waitFor(async () => (await keptEvents(id)) === 2, 5_000, 'B to keep the missed update');
    const replay = await resumeOn(a, id, lastEventId);
    expect(parseSseMessages(replay)).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } }]);
    expect(/^id: (.+)$/m.exec(replay)?.[1]).not.toBe(lastEventId);
  });

  it('the stream holder stopping hands over: what is sent until the client reconnects elsewhere is replayed there', async () => {
    const handles = await startThree(shared({ responseMode: 'sse' }));
    const [ha, hb, hc] = handles as [McpServerHandle, McpServerHandle, McpServerHandle];
    const [a, b, c] = handles.map(serverUrl) as [URL, URL, URL];
    const id = await openRaw(a);
    expect((await postMcp(b, { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'test://watched' } }, sessionHeaders(id))).status).toBe(200);
    const stream = await fetch(a, { headers: { accept: 'text/event-stream', ...sessionHeaders(id) } });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await waitFor(() => ha.http?.mcp.sessions.peek(id)?.shared?.holdsStream, 5_000, 'A to hold the stream');
    expect(hb.http?.mcp.sessions.peek(id)).toBeDefined();
    await hc.notifyResourceUpdated('test://watched');
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const lastEventId = /^id: (.+)$/m.exec(text)?.[1] as string;

    await ha.stop('rolling restart'); // its stream ends; B's copy takes over
    await reader.cancel().catch(() => undefined);
    await waitFor(() => hb.http?.mcp.sessions.peek(id)?.shared?.holdsStream, 5_000, 'B to take over');
    await hc.notifyResourceUpdated('test://watched');
    await waitFor(async () => (await keptEvents(id)) === 2, 5_000, 'B to keep the update sent after A stopped');
    expect(parseSseMessages(await resumeOn(c, id, lastEventId))).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } }]);
  });

  it('refuses to start without the database, or without a shared bus', async () => {
    await expect(startTestServer(fixtureServerData(), { mcp: { sessions: { store: 'postgres' }, notifications: { bus: 'postgres' } } })).rejects.toThrow(
      /mcp\.sessions\.store: "postgres" needs the database "main": set DB_MAIN_URL/,
    );
    await expect(startTestServer(fixtureServerData(), { ...shared(), mcp: { sessions: { store: 'postgres' } } })).rejects.toThrow(/MCP_NOTIFICATIONS_BUS=postgres/);
  });
});

describe('mcp.sessions.store: memory (the default)', () => {
  it('an id opened on another instance is unknown, as before', async () => {
    const config = { mcp: { sessions: { store: 'memory' }, responseMode: 'json' } };
    const [a, b] = (await Promise.all([startTestServer(fixtureServerData(), config), startTestServer(fixtureServerData(), config)])).map(serverUrl) as [URL, URL];
    const id = await openRaw(a);
    expect((await echo(a, id)).status).toBe(200);
    expectNotFound(await echo(b, id), 'POST on B');
  });
});

describe('the documented setup (02-5, Sessions across instances)', () => {
  it('loads as written, and the environment names the store', () => {
    const page = readFileSync(new URL('../../../../FA-MCP-SDK-DOC/02-5-tasks-and-state.md', import.meta.url), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(page.slice(page.indexOf('### Sessions across instances')))?.[1] as string;
    const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-sessions-doc-'));
    try {
      mkdirSync(join(dir, 'config'));
      writeFileSync(join(dir, 'config', 'default.yaml'), yaml);
      const { mcp } = loadConfig({ cwd: dir, env: {} }).config;
      expect(mcp.sessions.store).toBe('postgres');
      expect(mcp.notifications.bus).toBe('postgres');
      writeFileSync(join(dir, 'config', 'default.yaml'), '{}');
      expect(loadConfig({ cwd: dir, env: { MCP_SESSIONS_STORE: 'postgres' } }).config.mcp.sessions.store).toBe('postgres');
      expect(loadConfig({ cwd: dir, env: {} }).config.mcp.sessions.store).toBe('memory');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
