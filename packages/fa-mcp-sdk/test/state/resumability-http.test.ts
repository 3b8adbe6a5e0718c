/**
 * Last-Event-ID replay on 2025-era Streamable HTTP sessions, with the memory
 * store and with `mcp.resumability.store: postgres`: a tool closes its SSE
 * stream mid-call, the SDK client reconnects with Last-Event-ID and gets the
 * progress and the result it would have missed; a session cannot replay
 * another session's events; a session's events go when it ends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { InMemoryEventStore, type IEventStore } from '../../src/state/event-store-memory.js';
import { PostgresEventStore } from '../../src/state/event-store-postgres.js';
import {
  connectHttpClient,
  LEGACY_PROTOCOL_VERSION,
  MCP_ACCEPT,
  openRawSession,
  postMcp,
  readRaw,
  serverUrl,
  startTestServer,
  stopAllServers,
  waitFor,
} from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('resume_http');
});
afterAll(async () => {
  await db?.drop();
});
afterEach(stopAllServers);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const data = (eventStore?: IEventStore): McpServerData => ({
  tools: [
    {
      name: 'interrupted',
      description: 'Reports progress, closes its SSE stream, reports again and returns.',
      inputSchema: { type: 'object' },
      handler: async ({ sendProgress, client }) => {
        if (!client.closeStream) throw new Error('closeStream is not available: resumability is off');
        sendProgress(1, 2, 'before');
        await sleep(100);
        client.closeStream();
        await sleep(300); // the client is away now
        sendProgress(2, 2, 'while away');
        return formatToolResult('done while the client was away');
      },
    },
    { name: 'quick', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('quick answer') },
    // Past one turn of the event loop: its stream begins (headers, priming event) before the answer.
    { name: 'brief', description: 'Answers after a moment.', inputSchema: { type: 'object' }, handler: async () => (await sleep(50), formatToolResult('brief answer')) },
  ],
  ...(eventStore ? { eventStore } : {}),
});

const variants = [
  {
    name: 'memory (an instance passed in McpServerData)',
    start: async () => {
      const store = new InMemoryEventStore();
      return { handle: await startTestServer(data(store), { mcp: { progress: { throttleMs: 0 } } }), probe: store as IEventStore };
    },
  },
  {
    name: 'postgres (mcp.resumability.store)',
    start: async () => {
      const handle = await startTestServer(data(), {
        mcp: { progress: { throttleMs: 0 }, resumability: { store: 'postgres' } },
        db: { postgres: { dbs: { main: { url: db.url, poolSize: 3 } } } },
      });
      return { handle, probe: new PostgresEventStore(db.pool) as IEventStore };
    },
  },
];

/** The `id:` of each SSE event in a body. */
const eventIds = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1] as string);

describe.each(variants)('resumability with $name', ({ start }) => {
  it('replays what a client missed while its stream was closed: progress and the result arrive', async () => {
    const { handle } = await start();
    const { client } = await connectHttpClient(serverUrl(handle), { era: '2025' });
    const progress: string[] = [];
    const result = await client.callTool({ name: 'interrupted', arguments: {} }, { onprogress: (p) => void progress.push(String(p.message)), timeout: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'done while the client was away' }]);
    expect(progress).toEqual(['before', 'while away']);
  });

  it('refuses another session\'s event id, replays its own, and forgets its events when the session ends', async () => {
    const { handle, probe } = await start();
    const url = serverUrl(handle);
    const [a, b] = [await openRawSession(url), await openRawSession(url)];
    const headersOf = (sid: string) => ({ 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION });
    const call = await postMcp(url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'brief', arguments: {} } }, headersOf(a));
    const [priming] = eventIds(call.text);
    expect(priming).toBeDefined();
    expect(await probe.getStreamIdForEventId?.(priming as string)).toMatch(new RegExp(`^${a}/`));

    const get = (sid: string) =>
      fetch(url, { headers: { ...headersOf(sid), accept: MCP_ACCEPT, 'last-event-id': priming as string }, signal: AbortSignal.timeout(5_000) }).then(readRaw);
    const stolen = await get(b);
    expect(stolen.status).toBe(400);
    expect(stolen.text).not.toContain('brief answer');
    const own = await get(a);
    expect(own.status).toBe(200);
    expect(own.json).toEqual([{ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'brief answer' }] } }]);

    const closed = await fetch(url, { method: 'DELETE', headers: headersOf(a) });
    expect(closed.status).toBe(200);
    await waitFor(async () => (await probe.getStreamIdForEventId?.(priming as string)) === undefined, 3_000, 'the session events to go');
    // the other session is untouched
    const stillB = await postMcp(url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'quick', arguments: {} } }, headersOf(b));
    expect(stillB.status).toBe(200);
  });
});

describe('resumability configuration', () => {
  it('refuses to start when the postgres store names a database that is not configured', async () => {
    await expect(startTestServer(data(), { mcp: { resumability: { store: 'postgres', database: 'events' } } })).rejects.toThrow(/Database "events" is not configured/);
  });
});
