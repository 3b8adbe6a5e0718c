/**
 * The IMcpEventsStore contract: the in-memory and the PostgreSQL store pass the same suite —
 * positions in order per event type, an eventId stored once, retention by count and age,
 * webhook subscriptions (refresh in place, the per-principal cap, lapse, removal with their
 * pending deliveries), deliveries to one subscription claimed in order. On PostgreSQL also:
 * concurrent appends from several pools (instances) get gapless positions in commit order, and
 * a second instance reads the same epoch and cursor key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { EventSubscription, IMcpEventsStore } from '../../src/events/events-store.js';
import { InMemoryMcpEventsStore } from '../../src/events/events-store-memory.js';
import { PostgresMcpEventsStore } from '../../src/events/events-store-postgres.js';
import { PostgresEventStore } from '../../src/state/event-store-postgres.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('events_contract');
});
afterAll(async () => {
  await db?.drop();
});

const stores: Array<{ name: string; make: () => Promise<IMcpEventsStore> }> = [
  { name: 'memory', make: async () => new InMemoryMcpEventsStore() },
  {
    name: 'postgres',
    make: async () => {
      const store = await PostgresMcpEventsStore.open(db.pool);
      await db.pool.query('TRUNCATE fa_mcp_event_occurrences, fa_mcp_event_heads, fa_mcp_event_subscriptions, fa_mcp_event_outbox');
      return store;
    },
  },
];

const sub = (over: Partial<EventSubscription> = {}): EventSubscription => ({
  id: 'sub_1',
  principal: 'alice',
  auth: { subject: 'alice', scopes: [], groups: [] },
  name: 'a.b',
  arguments: {},
  url: 'https://example.com/hook',
  secret: 'whsec_x',
  expiresAt: Date.now() + 60_000,
  createdAt: Date.now(),
  updatedAt: Date.now(),
  ...over,
});

describe.each(stores)('IMcpEventsStore: $name', ({ make }) => {
  it('hands out positions in order per type, stores an eventId once, reads after a position', async () => {
    const store = await make();
    expect(await store.head('a.b')).toBe(0);
    const one = await store.append({ name: 'a.b', eventId: 'e1', timestamp: 1000, data: { n: 1 } }, undefined);
    const two = await store.append({ name: 'a.b', eventId: 'e2', timestamp: 2000, data: { n: 2 } }, undefined);
    const other = await store.append({ name: 'c.d', eventId: 'e1', timestamp: 2000, data: {} }, undefined);
    expect([one.occurrence.seq, two.occurrence.seq, other.occurrence.seq]).toEqual([1, 2, 1]);
    const dup = await store.append({ name: 'a.b', eventId: 'e1', timestamp: 3000, data: { n: 9 } }, undefined);
    expect(dup).toMatchObject({ duplicate: true, occurrence: { seq: 1, data: { n: 1 } } });
    expect(await store.head('a.b')).toBe(2);
    expect((await store.read('a.b', 0, 10)).map((o) => o.eventId)).toEqual(['e1', 'e2']);
    expect((await store.read('a.b', 1, 10)).map((o) => o.eventId)).toEqual(['e2']);
    expect((await store.read('a.b', 0, 10, 1500)).map((o) => o.eventId)).toEqual(['e2']);
    expect(await store.oldest('a.b')).toBe(1);
  });

  it('prunes by count per type and by age', async () => {
    const store = await make();
    for (let i = 1; i <= 5; i++) await store.append({ name: 'a.b', eventId: `e${i}`, timestamp: i * 1000, data: {} }, undefined);
    expect(await store.prune(3, 0)).toBe(2);
    expect(await store.oldest('a.b')).toBe(3);
    expect(await store.prune(100, 4500)).toBe(2);
    expect((await store.read('a.b', 0, 10)).map((o) => o.eventId)).toEqual(['e5']);
    expect(await store.head('a.b')).toBe(5);
  });

  it('keeps webhook subscriptions: refresh in place, a cap per principal, removal and lapse drop their deliveries', async () => {
    const store = await make();
    expect(await store.saveSubscription(sub(), 2)).toBe('created');
    expect(await store.saveSubscription(sub({ secret: 'whsec_new', expiresAt: null }), 2)).toBe('refreshed');
    expect(await store.subscription('sub_1')).toMatchObject({ secret: 'whsec_new', expiresAt: null, arguments: {} });
    expect(await store.saveSubscription(sub({ id: 'sub_2' }), 2)).toBe('created');
    expect(await store.saveSubscription(sub({ id: 'sub_3' }), 2)).toBe('limit');
    expect(await store.saveSubscription(sub({ id: 'sub_4', principal: 'bob' }), 2)).toBe('created');
    // Each append queues what the fanout picks, with the occurrence.
    const out = await store.append({ name: 'a.b', eventId: 'e1', timestamp: 1, data: {} }, (subs, o) =>
      subs.map((s) => ({ id: o.eventId, endpoint: s.id, type: o.name, body: '{}', now: Date.now(), seq: o.seq })),
    );
    expect(out.queued).toBe(3);
    expect(await store.pendingFloor('sub_2')).toBe(1);
    expect(await store.removeSubscription('sub_2')).toBe(true);
    expect(await store.pendingFloor('sub_2')).toBeUndefined();
    expect(await store.removeSubscription('sub_2')).toBe(false);
    await store.saveSubscription(sub({ id: 'sub_5', principal: 'carol', expiresAt: Date.now() - 1 }), 2);
    expect(await store.lapse(Date.now())).toBe(1);
    expect(await store.subscription('sub_5')).toBeUndefined();
    expect(await store.subscription('sub_1')).toBeDefined();
  });

  it('claims the deliveries of one subscription in order: a later one waits while an earlier one is pending', async () => {
    const store = await make();
    const now = Date.now();
    await store.queue([
      { id: 'e2', endpoint: 'sub_1', type: 'a.b', body: '{}', now, seq: 2 },
      { id: 'e1', endpoint: 'sub_1', type: 'a.b', body: '{}', now, seq: 1 },
      { id: 'x1', endpoint: 'sub_2', type: 'a.b', body: '{}', now, seq: 7 },
    ]);
    const first = await store.outbox.claim('me', now + 1, now + 60_000, 10);
    expect(first.map((d) => `${d.endpoint}/${d.id}`).sort()).toEqual(['sub_1/e1', 'sub_2/x1']);
    await store.outbox.record('e1', 'sub_1', 'me', { outcome: 'retry', nextAttemptAt: now + 2, error: 'HTTP 503', now: now + 1 });
    expect(await store.outbox.claim('me', now + 3, now + 60_000, 10)).toEqual([expect.objectContaining({ id: 'e1' })]);
    await store.outbox.record('e1', 'sub_1', 'me', { outcome: 'delivered', status: 204, now: now + 3 });
    expect(await store.outbox.claim('me', now + 4, now + 60_000, 10)).toEqual([expect.objectContaining({ id: 'e2' })]);
  });
});

describe('PostgresMcpEventsStore across instances', () => {
  it('gives concurrent appends from several instances gapless positions in commit order, and one epoch and key', async () => {
    const pools = [0, 1, 2].map(() => new pg.Pool({ connectionString: db.url, max: 4 }));
    try {
      const stores = await Promise.all(pools.map((p) => PostgresMcpEventsStore.open(p)));
      expect(new Set(stores.map((s) => s.epoch)).size).toBe(1);
      expect(new Set(stores.map((s) => s.cursorKey.toString('hex'))).size).toBe(1);
      await db.pool.query('TRUNCATE fa_mcp_event_occurrences, fa_mcp_event_heads');
      // A reader that follows the head while writers append must never see a hole behind the head.
      let reading = true;
      const holes: number[] = [];
      const reader = (async () => {
        while (reading) {
          const head = await stores[0]!.head('race');
          const rows = await stores[0]!.read('race', 0, 10_000);
          const seen = new Set(rows.map((r) => r.seq));
          for (let s = 1; s <= head; s++) if (!seen.has(s)) holes.push(s);
        }
      })();
      await Promise.all(stores.flatMap((s, i) => Array.from({ length: 30 }, (_, n) => s.append({ name: 'race', eventId: `i${i}-${n}`, timestamp: Date.now(), data: {} }, undefined))));
      reading = false;
      await reader;
      const all = await stores[1]!.read('race', 0, 1000);
      expect(all.map((o) => o.seq)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
      expect(holes).toEqual([]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('shares one database with the resumability event store (mcp.resumability): each keeps its own tables', async () => {
    const schema = await createTestSchema('events_beside_resumability');
    try {
      // Either order of start: the first one's migrations must not stand in for the other's.
      const resumability = new PostgresEventStore(schema.pool);
      await resumability.migrate();
      const events = await PostgresMcpEventsStore.open(schema.pool);
      const replayId = await resumability.storeEvent('session-1/_GET_stream', { jsonrpc: '2.0', method: 'notifications/message', params: {} });
      const outcome = await events.append({ name: 'beside', eventId: 'b-1', timestamp: Date.now(), data: { ok: true } }, undefined);
      expect(outcome).toMatchObject({ duplicate: false, occurrence: { seq: 1 } });
      expect((await events.read('beside', 0, 10)).map((o) => o.eventId)).toEqual(['b-1']);
      expect(await resumability.getStreamIdForEventId(replayId)).toBe('session-1/_GET_stream');
    } finally {
      await schema.drop();
    }
  });
});
