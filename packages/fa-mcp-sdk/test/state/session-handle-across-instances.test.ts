/**
 * The session handle across instances (`mcp.sessions.store: postgres`, real
 * PostgreSQL, three servers in one process): what is sent to a session reaches the
 * client on whichever instance holds its GET stream, from the instance that served
 * the call (a copy that does not hold the stream), from one that never saw the
 * session (`handle.session(id)`, through the store), and from one whose copy closed
 * while the session lives on; each checked against the session's stored level and
 * subscriptions. The session's own resources are listed and read on every instance,
 * no other session sees them, and they go with the session; close listeners run on
 * every instance when it ends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { McpServerHandle } from '../../src/index.js';
import { sessionServer, type Timers } from '../fixtures/session-server.js';
import { startTestServer, stopAllServers, waitFor } from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { clusterClient } from './cluster-client.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('session_handle');
});
afterAll(async () => {
  await db?.drop();
});
const timers: Timers = new Map();
afterEach(async () => {
  await stopAllServers();
  for (const { timer } of timers.values()) clearInterval(timer);
  timers.clear();
});

type Plain = Record<string, unknown>;
const shared = (mcp: Plain = {}): Plain => ({
  mcp: {
    notifications: { bus: 'postgres' },
    resumability: { store: 'postgres' },
    responseMode: 'sse',
    ...mcp,
    sessions: { store: 'postgres', ...((mcp.sessions as Plain | undefined) ?? {}) },
  },
  db: { postgres: { dbs: { main: { url: db.url, poolSize: 3 } } } },
});

const startThree = (config: Plain) => Promise.all([0, 1, 2].map(() => startTestServer(sessionServer(timers), config)));

interface Seen {
  logs: string[];
  updated: string[];
  lists: string[];
}

function watch(seen: Seen) {
  return (c: Client) => {
    c.setNotificationHandler('notifications/message', (n) => void seen.logs.push(`${n.params.level} ${JSON.stringify(n.params.data)}`));
    c.setNotificationHandler('notifications/resources/updated', (n) => void seen.updated.push(n.params.uri));
    c.setNotificationHandler('notifications/tools/list_changed', () => void seen.lists.push('tools'));
    c.setNotificationHandler('notifications/resources/list_changed', () => void seen.lists.push('resources'));
  };
}

const call = async (client: Client, name: string, args: Plain = {}): Promise<Plain> => {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Plain;
};

/** Waits until `instance` holds the session's GET stream and the others heard of it. */
async function streamOn(handles: McpServerHandle[], instance: number, id: string): Promise<void> {
  const holder = handles[instance] as McpServerHandle;
  await waitFor(() => holder.http?.mcp.sessions.peek(id)?.shared?.holdsStream, 5_000, 'the GET stream to open');
  await waitFor(() => handles.every((h) => h === holder || !h.http?.mcp.sessions.peek(id)?.shared?.holdsStream), 5_000, 'the others to hear of it');
}

const LIST = z.object({ resources: z.array(z.object({ uri: z.string() }).passthrough()) }).passthrough();

const resourceRows = async (id: string) => Number((await db.pool.query('SELECT count(*) AS n FROM fa_mcp_session_resources WHERE session_id = $1', [id])).rows[0].n);

describe.each([true, false])('the session handle, mcp.sessions.store: postgres, fastPath %s', (fastPath) => {
  it('reaches the GET stream on B from the copy on A that served the call, and from C that never saw the session', async () => {
    const handles = await startThree(shared({ fastPath }));
    const [a, , c] = handles as [McpServerHandle, McpServerHandle, McpServerHandle];
    const seen: Seen = { logs: [], updated: [], lists: [] };
    // Requests to A only; the GET stream to B; C never hears from the client.
    const { client } = await clusterClient(handles, { getTo: 1, postTo: [0], setup: watch(seen) });
    const id = (await call(client, 'session_info')).id as string;
    await streamOn(handles, 1, id);
    expect(c.http?.mcp.sessions.peek(id)).toBeUndefined();
    await client.setLoggingLevel('warning');
    await client.subscribeResource({ uri: 'test://watched' });

    const onA = await a.session(id);
    const onC = await c.session(id);
    if (!onA || !onC) throw new Error('no handle');
    expect(await onC.subscriptions()).toEqual(['test://watched']);
    // Filtered by the session's level and subscriptions, stored once for every instance.
    expect(await onA.log('info', 'A below')).toBe(false);
    expect(await onC.log('debug', 'C below')).toBe(false);
    expect(await onC.resourceUpdated('test://static')).toBe(false);
    expect(await onA.resourceUpdated('test://static')).toBe(false);
    expect(await onA.log('error', 'from A')).toBe(true);
    expect(await onA.resourceUpdated('test://watched')).toBe(true);
    expect(await onA.listChanged('tools')).toBe(true);
    await waitFor(() => seen.logs.length === 1 && seen.updated.length === 1 && seen.lists.length === 1, 10_000, 'what A sent');
    expect(await onC.log('critical', 'from C')).toBe(true);
    expect(await onC.resourceUpdated('test://watched')).toBe(true);
    expect(await onC.listChanged('resources')).toBe(true);
    await waitFor(() => seen.logs.length === 2 && seen.updated.length === 2 && seen.lists.length === 2, 10_000, 'what C sent');
    expect(seen.logs).toEqual(['error "from A"', 'critical "from C"']);
    expect(seen.updated).toEqual(['test://watched', 'test://watched']);
    expect(seen.lists).toEqual(['tools', 'resources']);

    // A timer started by a call on A sends, at the session's level, to the stream on B.
    seen.logs.length = 0;
    expect(await call(client, 'toggle_simulated_logging', { everyMs: 5 })).toEqual({ logging: 'started' });
    await waitFor(() => seen.logs.length >= 6, 10_000, 'the simulated logs');
    expect(await call(client, 'toggle_simulated_logging')).toEqual({ logging: 'stopped' });
    expect(new Set(seen.logs.map((l) => l.split(' ')[0]))).toEqual(new Set(['warning', 'error', 'critical', 'alert', 'emergency']));
    await client.close();
  });

  it('lists and reads the session\'s own resources on every instance, and no other session does', async () => {
    const handles = await startThree(shared({ fastPath }));
    const seen: Seen = { logs: [], updated: [], lists: [] };
    // Round-robin: every request to the next instance; the GET stream to C.
    const { client, served } = await clusterClient(handles, { getTo: 2, setup: watch(seen) });
    const id = (await call(client, 'session_info')).id as string;
    await streamOn(handles, 2, id);
    expect(await call(client, 'add_session_resource', { name: 'report.gz', text: 'compressed' })).toEqual({ uri: 'demo://resource/session/report.gz' });
    await waitFor(() => seen.lists.includes('resources'), 10_000, 'resources/list_changed on the stream');
    expect(await resourceRows(id)).toBe(1);
    const before = served.slice();
    for (let i = 0; i < 3; i++) {
      const uris = (await client.request({ method: 'resources/list', params: {} }, LIST)).resources.map((r) => r.uri);
      expect(uris, `list ${i}`).toContain('demo://resource/session/report.gz');
      const read = await client.readResource({ uri: 'demo://resource/session/report.gz' });
      expect(read.contents, `read ${i}`).toEqual([{ uri: 'demo://resource/session/report.gz', mimeType: 'text/plain', text: 'compressed' }]);
    }
    // Each instance served some of them.
    for (const [i, n] of served.entries()) expect(n - (before[i] as number), `instance ${i}`).toBeGreaterThan(0);

    const other = await clusterClient(handles);
    const otherUris = (await other.client.request({ method: 'resources/list', params: {} }, LIST)).resources.map((r) => r.uri);
    expect(otherUris).not.toContain('demo://resource/session/report.gz');
    await expect(other.client.readResource({ uri: 'demo://resource/session/report.gz' })).rejects.toMatchObject({ code: -32602 });
    await other.client.close();

    // Added through a handle on an instance that holds no copy (the others restored theirs): the same.
    const id2 = await (async () => {
      const again = await clusterClient(handles, { postTo: [0] });
      const sid = (await call(again.client, 'session_info')).id as string;
      const remote = await (handles[2] as McpServerHandle).session(sid);
      expect((handles[2] as McpServerHandle).http?.mcp.sessions.peek(sid)).toBeUndefined();
      await remote?.resources.add({ uri: 'demo://resource/session/from-c', name: 'from-c', content: { blob: Buffer.from('gz').toString('base64') }, mimeType: 'application/gzip' });
      expect((await again.client.readResource({ uri: 'demo://resource/session/from-c' })).contents).toEqual([
        { uri: 'demo://resource/session/from-c', mimeType: 'application/gzip', blob: Buffer.from('gz').toString('base64') },
      ]);
      await again.transport.terminateSession();
      await again.client.close();
      return sid;
    })();
    // Gone with its session.
    expect(await resourceRows(id2)).toBe(0);
    await client.close();
  });

  it('runs close listeners on every instance when the session ends, and a copy closed here sends on through the store', async () => {
    // One session per caller on A: a second session of this address evicts A's copy of the first.
    const handles = await startThree(shared({ fastPath, sessions: { maxPerCaller: 1 } }));
    const [a, b, c] = handles as [McpServerHandle, McpServerHandle, McpServerHandle];
    const seen: Seen = { logs: [], updated: [], lists: [] };
    const { client, transport } = await clusterClient(handles, { getTo: 1, postTo: [0], setup: watch(seen) });
    const id = (await call(client, 'session_info')).id as string;
    await streamOn(handles, 1, id);
    const onA = await a.session(id);
    const onC = await c.session(id);
    if (!onA || !onC) throw new Error('no handle');
    const closed: string[] = [];
    onA.onClose(() => closed.push('A'));
    onC.onClose(() => closed.push('C'));

    const second = await clusterClient(handles, { postTo: [0] });
    await waitFor(() => a.http?.mcp.sessions.peek(id) === undefined, 5_000, 'A to evict its copy');
    expect(onA.open).toBe(true); // the session lives on B
    expect(await onA.log('notice', 'after the copy closed')).toBe(true);
    await waitFor(() => seen.logs.length === 1, 10_000, 'the log through the store');
    expect(seen.logs).toEqual(['notice "after the copy closed"']);
    expect(closed).toEqual([]);

    // DELETE (on A, which restores it): every handle learns it ended.
    await transport.terminateSession();
    await waitFor(() => closed.length === 2, 10_000, 'the close listeners');
    expect(closed.sort()).toEqual(['A', 'C']);
    expect(await onC.log('emergency', 'too late')).toBe(false);
    expect(await c.session(id)).toBeUndefined();
    expect(b.http?.mcp.sessions.peek(id)).toBeUndefined();
    await second.client.close();
    await client.close();
  });
});
