/**
 * The IEventStore contract (Last-Event-ID replay on 2025-era SSE streams): the
 * in-memory and the PostgreSQL store pass the same suite, and so does a
 * session's view of either. The PostgreSQL store also serves what another
 * store instance wrote (a restarted server on the same database).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore, type IEventStore, type JsonRpcMessageLike } from '../../src/state/event-store-memory.js';
import { PostgresEventStore } from '../../src/state/event-store-postgres.js';
import { sessionEventStore } from '../../src/state/event-store-session.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('events_contract');
});
afterAll(async () => {
  await db?.drop();
});

interface Made {
  store: IEventStore;
  clock: { t: number };
}
interface Limits {
  maxEventsPerStream?: number;
  retentionMs?: number;
}

const stores: Array<{ name: string; make: (limits?: Limits) => Promise<Made> }> = [
  {
    name: 'memory',
    make: async (limits = {}) => {
      const clock = { t: 1_000_000 };
      return { clock, store: new InMemoryEventStore({ ...limits, now: () => clock.t }) };
    },
  },
  {
    name: 'postgres',
    make: async (limits = {}) => {
      const clock = { t: 1_000_000 };
      const store = new PostgresEventStore(db.pool, { ...limits, now: () => clock.t });
      await store.migrate();
      await db.pool.query('DELETE FROM fa_mcp_events');
      return { clock, store };
    },
  },
];

const msg = (n: number, extra: Record<string, unknown> = {}): JsonRpcMessageLike => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { n, ...extra } });

async function replay(store: IEventStore, lastEventId: string): Promise<{ streamId: string; sent: Array<[string, JsonRpcMessageLike]> }> {
  const sent: Array<[string, JsonRpcMessageLike]> = [];
  const streamId = await store.replayEventsAfter(lastEventId, { send: async (id, m) => void sent.push([id, m]) });
  return { streamId, sent };
}

const ns = (sent: Array<[string, JsonRpcMessageLike]>) => sent.map(([, m]) => (m.params as { n: number }).n);

describe.each(stores)('IEventStore contract: $name', ({ make }) => {
  it('replays the events of the stream after the given id, oldest first, with their ids', async () => {
    const { store } = await make();
    const a1 = await store.storeEvent('a', msg(1));
    await store.storeEvent('b', msg(100));
    const a2 = await store.storeEvent('a', msg(2));
    await store.storeEvent('b', msg(101));
    const a3 = await store.storeEvent('a', msg(3));
    expect(new Set([a1, a2, a3]).size).toBe(3);
    const r = await replay(store, a1);
    expect(r.streamId).toBe('a');
    expect(ns(r.sent)).toEqual([2, 3]);
    expect(r.sent.map(([id]) => id)).toEqual([a2, a3]);
    expect(ns((await replay(store, a2)).sent)).toEqual([3]);
  });

  it('sends nothing after the newest event and still names its stream', async () => {
    const { store } = await make();
    const last = await store.storeEvent('s', msg(1));
    expect(await replay(store, last)).toEqual({ streamId: 's', sent: [] });
  });

  it('maps event ids to streams; an unknown id maps to nothing and its replay rejects without sending', async () => {
    const { store } = await make();
    const id = await store.storeEvent('stream-x', msg(1));
    expect(await store.getStreamIdForEventId?.(id)).toBe('stream-x');
    expect(await store.getStreamIdForEventId?.('not-an-event')).toBeUndefined();
    const sent: string[] = [];
    await expect(store.replayEventsAfter('not-an-event', { send: async (e) => void sent.push(e) })).rejects.toThrow(/Last-Event-ID/);
    expect(sent).toEqual([]);
  });

  it('round-trips every message exactly, the empty priming event included', async () => {
    const { store } = await make();
    const first = await store.storeEvent('p', {} as JsonRpcMessageLike);
    const rich = { jsonrpc: '2.0' as const, id: 7, result: { content: [{ type: 'text', text: 'ünïcødé "quoted" \n' }], nested: { a: [1, null, true] } } };
    await store.storeEvent('p', rich);
    expect((await replay(store, first)).sent.map(([, m]) => m)).toEqual([rich]);
  });

  it('keeps at most maxEventsPerStream per stream, dropping the oldest; other streams keep theirs', async () => {
    const { store } = await make({ maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('busy', msg(n)));
    const quiet = await store.storeEvent('quiet', msg(50));
    await store.storeEvent('quiet', msg(51));
    // 1 and 2 are gone: their ids are unknown now
    await expect(replay(store, ids[0]!)).rejects.toThrow();
    await expect(replay(store, ids[1]!)).rejects.toThrow();
    expect(ns((await replay(store, ids[2]!)).sent)).toEqual([4, 5]);
    expect(ns((await replay(store, quiet)).sent)).toEqual([51]);
  });

  it('stops replaying events older than the retention, and the sweep deletes them', async () => {
    const { store, clock } = await make({ retentionMs: 10_000 });
    const old = await store.storeEvent('s', msg(1));
    clock.t += 6_000;
    const mid = await store.storeEvent('s', msg(2));
    clock.t += 5_000; // `old` is 11 s old, `mid` 5 s
    await expect(replay(store, old)).rejects.toThrow(/Last-Event-ID/);
    expect(await store.getStreamIdForEventId?.(old)).toBeUndefined();
    await store.storeEvent('s', msg(3));
    expect(ns((await replay(store, mid)).sent)).toEqual([3]);
    expect(await store.sweep?.()).toBe(1);
    clock.t += 60_000;
    expect(await store.sweep?.()).toBe(2);
    await expect(replay(store, mid)).rejects.toThrow();
  });

  it('drops the streams of one prefix only (LIKE wildcards in the prefix are literal)', async () => {
    const { store } = await make();
    const mine = await store.storeEvent('s_1%/a', msg(1));
    await store.storeEvent('s_1%/b', msg(2));
    const lookalike = await store.storeEvent('sx1x/a', msg(3));
    const other = await store.storeEvent('t/a', msg(4));
    expect(await store.dropStreamsOf?.('s_1%/')).toBe(2);
    await expect(replay(store, mine)).rejects.toThrow();
    expect((await replay(store, lookalike)).streamId).toBe('sx1x/a');
    expect((await replay(store, other)).streamId).toBe('t/a');
  });

  describe('a session view', () => {
    it('keeps sessions apart on the stream name the SDK gives every session (_GET_stream)', async () => {
      const { store } = await make();
      const a = sessionEventStore(store, 'session-a');
      const b = sessionEventStore(store, 'session-b');
      const a1 = await a.storeEvent('_GET_stream', msg(1));
      const b1 = await b.storeEvent('_GET_stream', msg(100));
      await a.storeEvent('_GET_stream', msg(2));
      await b.storeEvent('_GET_stream', msg(101));
      expect(await replay(a, a1)).toMatchObject({ streamId: '_GET_stream' });
      expect(ns((await replay(a, a1)).sent)).toEqual([2]);
      expect(ns((await replay(b, b1)).sent)).toEqual([101]);
      // session b cannot read session a's events, even knowing an id
      expect(await b.getStreamIdForEventId?.(a1)).toBeUndefined();
      const sent: string[] = [];
      await expect(b.replayEventsAfter(a1, { send: async (id) => void sent.push(id) })).rejects.toThrow(/Last-Event-ID/);
      expect(sent).toEqual([]);
    });

    it('forgets its own events when the session ends', async () => {
      const { store } = await make();
      const a = sessionEventStore(store, 'session-a');
      const b = sessionEventStore(store, 'session-b');
      const a1 = await a.storeEvent('_GET_stream', msg(1));
      const b1 = await b.storeEvent('_GET_stream', msg(2));
      await a.drop();
      await expect(replay(a, a1)).rejects.toThrow();
      expect((await replay(b, b1)).streamId).toBe('_GET_stream');
    });
  });
});

describe('PostgresEventStore across instances', () => {
  it('replays, on a new store instance with its own pool, what another instance wrote (a restart on the same database)', async () => {
    const first = new PostgresEventStore(db.pool);
    await first.migrate();
    const id = await first.storeEvent('restart/s', msg(1));
    await first.storeEvent('restart/s', msg(2));
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    try {
      const second = new PostgresEventStore(pool);
      await second.migrate(); // already applied: a no-op
      expect(ns((await replay(second, id)).sent)).toEqual([2]);
    } finally {
      await pool.end();
    }
  });

  it('migrates once when two instances start at the same moment', async () => {
    const pools = [0, 1, 2].map(() => new pg.Pool({ connectionString: db.url, max: 2 }));
    try {
      await Promise.all(pools.map((p) => new PostgresEventStore(p).migrate()));
      const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM fa_mcp_migrations WHERE id = 'events-001'");
      expect(rows[0].n).toBe(1);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
