/**
 * Resource updates and list changes across instances: two servers on one
 * PostgreSQL schema with `mcp.notifications.bus: postgres`. A 2025-era client
 * subscribed on B, and a 2026-07-28 subscriptions/listen stream on B, receive
 * what `notifyResourceUpdated` / `notifyListChanged` publish on A; a client on A
 * gets it once; a server of another schema gets nothing. The memory default
 * stays within one process; a bus instance passed in McpServerData replaces it;
 * a failing bus is reported to the caller after the local delivery.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData, type McpServerHandle } from '../../src/index.js';
import { InMemoryNotificationBus, type INotificationBus } from '../../src/state/notification-bus.js';
import { connectHttpClient, serverUrl, startTestServer, stopAllServers, waitFor } from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
let other: TestSchema;
beforeAll(async () => {
  [db, other] = await Promise.all([createTestSchema('changes_a'), createTestSchema('changes_b')]);
});
afterAll(async () => {
  await Promise.all([db?.drop(), other?.drop()]);
});
afterEach(stopAllServers);

const data: McpServerData = {
  capabilities: { listChanged: true, subscribe: true },
  tools: [{ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') }],
  resources: [
    { uri: 'test://doc', name: 'doc', content: 'v1' },
    { uri: 'test://other', name: 'other', content: 'x' },
  ],
};

const pgConfig = (schema: TestSchema) => ({
  mcp: { notifications: { bus: 'postgres' } },
  db: { postgres: { dbs: { main: { url: schema.url, poolSize: 2 } } } },
});

/** A client that records every change notification it receives. */
async function watcher(handle: McpServerHandle, era: '2025' | '2026') {
  const seen: string[] = [];
  const { client } = await connectHttpClient(serverUrl(handle), {
    era,
    setup: (c: Client) => {
      c.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(`updated ${n.params.uri}`));
      c.setNotificationHandler('notifications/tools/list_changed', () => void seen.push('tools'));
      c.setNotificationHandler('notifications/prompts/list_changed', () => void seen.push('prompts'));
    },
  });
  return { client, seen };
}

/** After the awaited notifications arrived: a moment for any that should not arrive (a negative check; a busy machine only makes it weaker, never false). */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('over PostgreSQL LISTEN/NOTIFY (mcp.notifications.bus: postgres)', () => {
  it('a 2025-era subscriber on B gets the resource updates and list changes published on A; a client on A gets them once', async () => {
    const [a, b] = await Promise.all([startTestServer(data, pgConfig(db)), startTestServer(data, pgConfig(db))]);
    const onB = await watcher(b, '2025');
    const onA = await watcher(a, '2025');
    await onB.client.subscribeResource({ uri: 'test://doc' });
    await onA.client.subscribeResource({ uri: 'test://doc' });

    expect(await a.notifyResourceUpdated('test://doc')).toBe(1); // the count is of A's own connections
    await a.notifyResourceUpdated('test://other'); // nobody subscribed to it
    await a.notifyListChanged('tools');
    await waitFor(() => onB.seen.length >= 2 && onA.seen.length >= 2, 10_000, 'B and A to hear from A');
    await settle();
    expect(onB.seen).toEqual(['updated test://doc', 'tools']);
    expect(onA.seen).toEqual(['updated test://doc', 'tools']);
  });

  it('a 2026-07-28 subscriptions/listen stream on B gets what A publishes, filtered as it asked', async () => {
    const [a, b] = await Promise.all([startTestServer(data, pgConfig(db)), startTestServer(data, pgConfig(db))]);
    const onB = await watcher(b, '2026');
    const sub = await onB.client.listen({ resourceSubscriptions: ['test://doc'], toolsListChanged: true });
    expect(sub.honoredFilter).toMatchObject({ resourceSubscriptions: ['test://doc'], toolsListChanged: true });

    await a.notifyListChanged('resources'); // not asked for
    await a.notifyResourceUpdated('test://other'); // not asked for
    await a.notifyResourceUpdated('test://doc');
    await a.notifyListChanged('tools');
    await waitFor(() => onB.seen.length >= 2, 5_000, 'the listen stream on B');
    await settle();
    expect(onB.seen).toEqual(['updated test://doc', 'tools']);
  });

  it('does not reach servers of another schema on the same database, whose own bus works', async () => {
    const [a, s1, s2] = await Promise.all([startTestServer(data, pgConfig(db)), startTestServer(data, pgConfig(other)), startTestServer(data, pgConfig(other))]);
    const onS1 = await watcher(s1, '2025');
    await onS1.client.subscribeResource({ uri: 'test://doc' });
    await a.notifyResourceUpdated('test://doc');
    await a.notifyListChanged('resources');
    await s2.notifyListChanged('tools'); // the same schema as s1: it arrives
    await waitFor(() => onS1.seen.includes('tools'), 5_000, 's1 to hear s2');
    await settle();
    expect(onS1.seen).toEqual(['tools']);
  });
});

describe('without a shared bus', () => {
  it('keeps changes within one process by default (mcp.notifications.bus: memory)', async () => {
    const [a, b] = await Promise.all([startTestServer(data), startTestServer(data)]);
    const onB = await watcher(b, '2025');
    await onB.client.subscribeResource({ uri: 'test://doc' });
    await a.notifyResourceUpdated('test://doc');
    await b.notifyListChanged('tools');
    await waitFor(() => onB.seen.length >= 1, 3_000, 'B to hear itself');
    await settle();
    expect(onB.seen).toEqual(['tools']);
  });

  it('uses a bus instance passed in McpServerData (here one shared by two in-process servers)', async () => {
    const bus = new InMemoryNotificationBus();
    const [a, b] = await Promise.all([startTestServer({ ...data, notificationBus: bus }), startTestServer({ ...data, notificationBus: bus })]);
    const onB = await watcher(b, '2025');
    await onB.client.subscribeResource({ uri: 'test://doc' });
    await a.notifyResourceUpdated('test://doc');
    await waitFor(() => onB.seen.length >= 1, 3_000, 'B to hear A');
    expect(onB.seen).toEqual(['updated test://doc']);
  });

  it('rejects with UPSTREAM_UNAVAILABLE when the bus cannot publish, after notifying this instance\'s connections', async () => {
    const broken: INotificationBus = {
      publish: async () => {
        throw new Error('connection refused');
      },
      subscribe: () => () => undefined,
      close: async () => undefined,
    };
    const a = await startTestServer({ ...data, notificationBus: broken });
    const onA = await watcher(a, '2025');
    await onA.client.subscribeResource({ uri: 'test://doc' });
    await expect(a.notifyResourceUpdated('test://doc')).rejects.toMatchObject({ code: MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE });
    await waitFor(() => onA.seen.length >= 1, 3_000, 'the local delivery');
    expect(onA.seen).toEqual(['updated test://doc']);
  });
});
