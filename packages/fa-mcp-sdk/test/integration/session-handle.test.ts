/**
 * Sending to one session outside any request (`params.session`, `handle.session(id)`):
 * on every 2025-era connection (Streamable HTTP sessions on the core route and the SDK
 * route, legacy SSE, stdio) a handler gets the session it came in on, and the handle
 * keeps working after the call: log messages honour the level the session set with
 * logging/setLevel, resource updates go only for URIs that session subscribed to, list
 * changes reach that session and no other, timers stop when the session ends. Its own
 * resources (session.resources) are listed, paginated and read in that session and no
 * other, announced with list_changed, and gone with it. 2026-07-28 and stateless
 * requests have no session.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SSEClientTransport, StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import type { IMcpSession, McpServerHandle } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { LEVELS, sessionServer, type Timers } from '../fixtures/session-server.js';
import { z } from 'zod';
import { waitFor } from './helpers.js';
import { resourcePages } from './resource-pages.js';

type Plain = Record<string, unknown>;

/** What a client received outside its calls. */
interface Seen {
  logs: Array<{ level: string; data: unknown }>;
  updated: string[];
  lists: string[];
}

async function connect(server: TestServer): Promise<{ client: Client; seen: Seen }> {
  const seen: Seen = { logs: [], updated: [], lists: [] };
  const client = await server.connect({}, (c) => {
    c.setNotificationHandler('notifications/message', (n) => void seen.logs.push({ level: n.params.level, data: n.params.data }));
    c.setNotificationHandler('notifications/resources/updated', (n) => void seen.updated.push(n.params.uri));
    c.setNotificationHandler('notifications/tools/list_changed', () => void seen.lists.push('tools'));
    c.setNotificationHandler('notifications/prompts/list_changed', () => void seen.lists.push('prompts'));
    c.setNotificationHandler('notifications/resources/list_changed', () => void seen.lists.push('resources'));
  });
  return { client, seen };
}

const structured = async (client: Client, name: string, args: Plain = {}): Promise<Plain> => {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Plain;
};

async function sessionOf(client: Client, handle: McpServerHandle): Promise<IMcpSession> {
  const info = await structured(client, 'session_info');
  expect(info).toMatchObject({ same: true, open: true });
  const session = await handle.session(info.id as string);
  if (!session) throw new Error(`no session ${String(info.id)}`);
  return session;
}

/** Ends the client's session the way its transport does: DELETE, the SSE stream closing, stdio's end. */
async function endSession(server: TestServer, client: Client): Promise<void> {
  const transport = client.transport;
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
  else if (transport instanceof SSEClientTransport) await client.close();
  else await server.stop();
}


const sessionTargets = ALL_TARGETS.filter((t) => t.era === '2025' && t.transport !== 'stateless');

describe.each(sessionTargets)('the session handle on $label', (target: TestTarget) => {
  const timers: Timers = new Map();
  let server: TestServer;
  const multi = target.transport !== 'stdio'; // one client per stdio server
  beforeEach(async () => {
    server = await startTestServer(sessionServer(timers), { target, config: { mcp: { pagination: { pageSize: 2 } } } });
  });
  afterEach(async () => {
    await server?.stop().catch(() => undefined);
    for (const { timer } of timers.values()) clearInterval(timer);
    timers.clear();
  });

  it('is the connection the call came in on, and logs after the call at the level the session set', async () => {
    const { client, seen } = await connect(server);
    const session = await sessionOf(client, server.handle);
    if (client.transport instanceof StreamableHTTPClientTransport) expect(session.id).toBe(client.transport.sessionId);
    // Until the session sets a level, every level goes.
    expect(await session.log('debug', 'before any level')).toBe(true);
    await waitFor(() => seen.logs.length === 1, 5_000, 'the first log');
    await client.setLoggingLevel('error');
    expect(await session.log('warning', 'below the level')).toBe(false);
    expect(await session.log('critical', 'at or above')).toBe(true);
    await waitFor(() => seen.logs.length === 2, 5_000, 'the second log');
    // Sent in order on one stream: the refused one would have come first.
    expect(seen.logs).toEqual([{ level: 'debug', data: 'before any level' }, { level: 'critical', data: 'at or above' }]);
  });

  it('sends resource updates only for the URIs the session subscribed to, and list changes, to that session alone', async () => {
    const one = await connect(server);
    const s1 = await sessionOf(one.client, server.handle);
    expect(await s1.resourceUpdated('test://watched')).toBe(false); // not subscribed yet
    await one.client.subscribeResource({ uri: 'test://watched' });
    expect(await s1.subscriptions()).toEqual(['test://watched']);
    expect(await s1.resourceUpdated('test://static')).toBe(false);
    expect(await s1.resourceUpdated('test://watched')).toBe(true);
    expect(await s1.listChanged('tools')).toBe(true);
    // A list the server does not serve (no prompts) is not announced.
    expect(await s1.listChanged('prompts')).toBe(false);
    await waitFor(() => one.seen.updated.length === 1 && one.seen.lists.length === 1, 5_000, 'the update and the list change');
    expect(one.seen.updated).toEqual(['test://watched']);
    expect(one.seen.lists).toEqual(['tools']);
    if (!multi) return;
    // Another session on the same server: subscribed to the same URI, it gets nothing of s1's.
    const two = await connect(server);
    const s2 = await sessionOf(two.client, server.handle);
    expect(s2.id).not.toBe(s1.id);
    await two.client.subscribeResource({ uri: 'test://watched' });
    expect(await s1.resourceUpdated('test://watched')).toBe(true);
    expect(await s1.listChanged('resources')).toBe(true);
    expect(await s2.log('info', 'marker')).toBe(true);
    await waitFor(() => two.seen.logs.length === 1 && one.seen.lists.length === 2, 5_000, 'the marker on the second session');
    expect(two.seen.updated).toEqual([]);
    expect(two.seen.lists).toEqual([]);
  });

  it('toggle_simulated_logging: periodic logs of every level at or above the session level, stopped by the toggle', async () => {
    const { client, seen } = await connect(server);
    await client.setLoggingLevel('warning');
    expect(await structured(client, 'toggle_simulated_logging', { everyMs: 5 })).toEqual({ logging: 'started' });
    // Two rounds of the eight levels; only warning and above arrive.
    await waitFor(() => seen.logs.length >= 10, 10_000, 'ten log messages');
    expect(await structured(client, 'toggle_simulated_logging')).toEqual({ logging: 'stopped' });
    expect(timers.size).toBe(0);
    const levels = seen.logs.map((l) => l.level);
    expect(new Set(levels)).toEqual(new Set(LEVELS.slice(3)));
    expect(levels.slice(0, 5)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
  });

  it('toggle_subscriber_updates: periodic updates of the URIs this session subscribed to, stopped when the session ends', async () => {
    const { client, seen } = await connect(server);
    await client.subscribeResource({ uri: 'test://watched' });
    await client.subscribeResource({ uri: 'test://items/7' });
    await client.unsubscribeResource({ uri: 'test://items/7' });
    const session = await sessionOf(client, server.handle);
    let closed = 0;
    session.onClose(() => closed++);
    expect(await structured(client, 'toggle_subscriber_updates', { everyMs: 5 })).toEqual({ updates: 'started' });
    await waitFor(() => seen.updated.length >= 3, 10_000, 'three updates');
    expect(new Set(seen.updated)).toEqual(new Set(['test://watched']));
    await endSession(server, client);
    await waitFor(() => closed === 1 && timers.size === 0, 5_000, 'the close listeners');
    expect(session.open).toBe(false);
    expect(await session.resourceUpdated('test://watched')).toBe(false);
    expect(await session.log('emergency', 'after the end')).toBe(false);
    if (target.transport !== 'stdio') expect(await server.handle.session(session.id)).toBeUndefined();
  });

  it('session resources: listed (paginated) and read in that session only, announced to it, gone with it', async () => {
    const one = await connect(server);
    const s1 = await sessionOf(one.client, server.handle);
    const before = await resourcePages(one.client);
    expect(await structured(one.client, 'add_session_resource', { name: 'report.gz', text: 'compressed' })).toEqual({ uri: 'demo://resource/session/report.gz' });
    expect(await structured(one.client, 'add_session_resource', { name: 'notes', text: 'second' })).toEqual({ uri: 'demo://resource/session/notes' });
    await waitFor(() => one.seen.lists.filter((l) => l === 'resources').length === 2, 5_000, 'two resources/list_changed');
    const after = await resourcePages(one.client);
    expect(after.uris).toEqual([...before.uris, 'demo://resource/session/report.gz', 'demo://resource/session/notes']);
    expect(after.pages).toBeGreaterThan(1); // pageSize 2: the session's own come on later pages, through the cursors
    expect((await one.client.readResource({ uri: 'demo://resource/session/report.gz' })).contents).toEqual([
      { uri: 'demo://resource/session/report.gz', mimeType: 'text/plain', text: 'compressed' },
    ]);
    expect((await s1.resources.list()).map((r) => r.uri)).toEqual(['demo://resource/session/report.gz', 'demo://resource/session/notes']);

    // A URI the server serves already is refused.
    const clash = await one.client.callTool({ name: 'add_session_resource', arguments: { name: 'x', text: 'y', uri: 'test://items/3' } });
    expect(clash.isError).toBe(true);
    expect(JSON.stringify(clash.content)).toContain('served by a static resource or a template');

    if (multi) {
      const two = await connect(server);
      expect((await resourcePages(two.client)).uris).toEqual(before.uris);
      await expect(two.client.readResource({ uri: 'demo://resource/session/report.gz' })).rejects.toMatchObject({ code: -32602, data: { uri: expect.any(String) } });
      // The marker of the second session's stream: the list changes of the first never came here.
      expect(await (await sessionOf(two.client, server.handle)).log('info', 'marker')).toBe(true);
      await waitFor(() => two.seen.logs.length === 1, 5_000, 'the marker');
      expect(two.seen.lists).toEqual([]);
    }

    expect(await structured(one.client, 'remove_session_resource', { uri: 'demo://resource/session/notes' })).toEqual({ removed: true });
    expect(await structured(one.client, 'remove_session_resource', { uri: 'demo://resource/session/notes' })).toEqual({ removed: false });
    await waitFor(() => one.seen.lists.filter((l) => l === 'resources').length === 3, 5_000, 'the third resources/list_changed');
    expect((await resourcePages(one.client)).uris).toEqual([...before.uris, 'demo://resource/session/report.gz']);
    await expect(one.client.readResource({ uri: 'demo://resource/session/notes' })).rejects.toMatchObject({ code: -32602, data: { uri: expect.any(String) } });

    await endSession(server, one.client);
    await waitFor(() => !s1.open, 5_000, 'the session to end');
    expect(await s1.resources.list()).toEqual([]);
    await expect(s1.resources.add({ uri: 'demo://resource/session/late', name: 'late', content: 'x' })).rejects.toThrow(/has ended/);
  });
});

describe.each(sessionTargets)('a 2025-era task on $label', (target) => {
  const timers: Timers = new Map();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(sessionServer(timers), { target, config: { mcp: { tasks: { enabled: true } } } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gets the session of the connection that created it, and sends to it from the background', async () => {
    const { client, seen } = await connect(server);
    const id = (await structured(client, 'session_info')).id as string;
    const created = await client.request(
      { method: 'tools/call', params: { name: 'session_info_task', arguments: {}, task: { ttl: 60_000 } } },
      z.object({ task: z.object({ taskId: z.string() }).passthrough() }),
    );
    const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, z.record(z.string(), z.unknown()));
    expect(result.structuredContent).toEqual({ id, logged: true });
    await waitFor(() => seen.logs.length === 1, 5_000, 'the log of the task');
    expect(seen.logs).toEqual([{ level: 'info', data: 'from the task' }]);
  });
});

describe.each(ALL_TARGETS.filter((t) => t.era === '2026' || t.transport === 'stateless'))('no session on $label', (target) => {
  const timers: Timers = new Map();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(sessionServer(timers), { target });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives handlers no session, and handle.session() finds none', async () => {
    const client = await server.connect();
    const result = await client.callTool({ name: 'session_info', arguments: {} });
    expect(result.structuredContent).toEqual({ id: null, same: true, open: null });
    const add = await client.callTool({ name: 'add_session_resource', arguments: { name: 'x', text: 'y' } });
    expect(add.isError).toBe(true);
    expect(await server.handle.session('anything')).toBeUndefined();
  });
});
