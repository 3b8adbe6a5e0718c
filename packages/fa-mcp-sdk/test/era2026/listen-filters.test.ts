/**
 * The 2026-07-28 counterpart of sending to one session: there are no sessions, and
 * what `handle.notifyResourceUpdated(uri)` / `handle.notifyListChanged(kind)` publish
 * reaches each subscriptions/listen stream only as its filter asked: two streams of
 * one client, with different URIs and lists, each get their own and nothing of the
 * other's (HTTP on both request paths, stdio).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_ID_META_KEY, type Client } from '@modelcontextprotocol/client';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { sessionServer, type Timers } from '../fixtures/session-server.js';
import { waitFor } from '../integration/helpers.js';

describe.each(ALL_TARGETS.filter((t) => t.era === '2026'))('listen streams on $label', (target) => {
  const timers: Timers = new Map();
  let server: TestServer;
  let client: Client;
  /** What arrived, by the subscription (listen request id) it was stamped with. */
  const byStream = new Map<string, string[]>();
  const record = (what: string, meta: Record<string, unknown> | undefined) => {
    const id = String(meta?.[SUBSCRIPTION_ID_META_KEY] ?? 'none');
    byStream.set(id, [...(byStream.get(id) ?? []), what]);
  };

  beforeAll(async () => {
    server = await startTestServer(sessionServer(timers), { target });
    client = await server.connect({}, (c) => {
      c.setNotificationHandler('notifications/resources/updated', (n) => record(`updated ${n.params.uri}`, n.params._meta));
      c.setNotificationHandler('notifications/tools/list_changed', (n) => record('tools', n.params?._meta));
      c.setNotificationHandler('notifications/resources/list_changed', (n) => record('resources', n.params?._meta));
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('delivers to each stream only what its filter names', async () => {
    const first = await client.listen({ resourceSubscriptions: ['test://static'], toolsListChanged: true });
    const second = await client.listen({ resourceSubscriptions: ['test://watched'], resourcesListChanged: true });
    expect(first.honoredFilter).toEqual({ resourceSubscriptions: ['test://static'], toolsListChanged: true });
    expect(second.honoredFilter).toEqual({ resourceSubscriptions: ['test://watched'], resourcesListChanged: true });
    const { handle } = server;
    await handle.notifyResourceUpdated('test://static');
    await handle.notifyResourceUpdated('test://watched');
    await handle.notifyResourceUpdated('test://items/1'); // no stream asked for it
    await handle.notifyListChanged('tools');
    await handle.notifyListChanged('resources');
    // Last on each stream: once they arrived, everything published before has arrived on that stream.
    await handle.notifyResourceUpdated('test://static');
    await handle.notifyResourceUpdated('test://watched');
    const streams = () => [...byStream.values()];
    await waitFor(() => streams().length === 2 && streams().every((s) => s.length === 3), 10_000, 'three notifications on each stream');
    expect([...byStream.values()].sort()).toEqual(
      [
        ['updated test://static', 'tools', 'updated test://static'],
        ['updated test://watched', 'resources', 'updated test://watched'],
      ].sort(),
    );
    expect(byStream.has('none')).toBe(false);
    await first.close();
    await second.close();
  });
});
