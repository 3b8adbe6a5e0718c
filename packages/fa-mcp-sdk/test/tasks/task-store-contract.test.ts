/**
 * The ITaskStore contract: the in-memory and the PostgreSQL store pass the same suite.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../../src/tasks/task-store-memory.js';
import { PostgresTaskStore, TASK_MIGRATIONS } from '../../src/tasks/task-store-postgres.js';
import { runMigrations } from '../../src/state/pg-migrations.js';
import { TaskLimitError, type ITaskStore } from '../../src/tasks/task-types.js';
import { createTestSchema, type TestSchema } from './pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('tasks_contract');
});
afterAll(async () => {
  await db?.drop();
});

const stores: Array<{ name: string; make: (maxTasks: number) => Promise<ITaskStore> }> = [
  { name: 'memory', make: async (maxTasks) => new InMemoryTaskStore({ maxTasks }) },
  {
    name: 'postgres',
    make: async (maxTasks) => {
      const store = new PostgresTaskStore(db.pool, { maxTasks });
      await store.migrate();
      await db.pool.query('DELETE FROM fa_mcp_tasks');
      return store;
    },
  },
];

const input = (owner: string, now: number, over: Partial<{ ttlMs: number; leaseMs: number }> = {}) => ({
  taskId: randomUUID(),
  owner,
  toolName: 'report',
  arguments: { n: 1 },
  ttlMs: over.ttlMs ?? 60_000,
  pollIntervalMs: 500,
  leaseOwner: 'instance-a',
  leaseMs: over.leaseMs ?? 10_000,
  now,
});

describe.each(stores)('ITaskStore contract: $name', ({ make }) => {
  it('creates a working task and reads it back', async () => {
    const store = await make(100);
    const created = await store.create(input('alice', 1_000));
    expect(created).toMatchObject({ owner: 'alice', status: 'working', createdAt: 1_000, expiresAt: 61_000, leaseExpiresAt: 11_000, version: 1 });
    expect(await store.get(created.taskId)).toEqual(created);
    expect(await store.get(randomUUID())).toBeUndefined();
  });

  it('updates a running task and never changes a finished one', async () => {
    const store = await make(100);
    const t = await store.create(input('alice', 1_000));
    const done = await store.update(t.taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } }, 2_000);
    expect(done).toMatchObject({ status: 'completed', updatedAt: 2_000, version: 2 });
    expect(await store.update(t.taskId, { status: 'cancelled' }, 3_000)).toBeUndefined();
    expect((await store.get(t.taskId))?.status).toBe('completed');
    expect((await store.get(t.taskId))?.result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('writes by version only when nobody wrote in between (compare-and-set), and keeps input answers', async () => {
    const store = await make(100);
    const t = await store.create(input('alice', 1_000));
    const asked = await store.updateIfVersion(t.taskId, 1, { status: 'input_required', inputRequests: { k1: { method: 'elicitation/create' } } }, 1_100);
    expect(asked).toMatchObject({ status: 'input_required', version: 2, inputRequests: { k1: { method: 'elicitation/create' } } });
    // a writer that read version 1 loses, and changes nothing
    expect(await store.updateIfVersion(t.taskId, 1, { status: 'working' }, 1_200)).toBeUndefined();
    expect((await store.get(t.taskId))?.status).toBe('input_required');
    const answered = await store.updateIfVersion(t.taskId, 2, { status: 'working', inputRequests: {}, inputResponses: { k1: { action: 'accept' } } }, 1_300);
    expect(answered).toMatchObject({ status: 'working', version: 3, inputResponses: { k1: { action: 'accept' } } });
    expect((await store.get(t.taskId))?.inputResponses).toEqual({ k1: { action: 'accept' } });
    await store.update(t.taskId, { status: 'cancelled' }, 1_400);
    expect(await store.updateIfVersion(t.taskId, 4, { status: 'working' }, 1_500)).toBeUndefined();
    expect(await store.updateIfVersion(randomUUID(), 1, { status: 'working' })).toBeUndefined();
  });

  it('refuses a new task past the retained-task cap, and frees room once old ones expire', async () => {
    const store = await make(3);
    for (let i = 0; i < 3; i++) await store.create(input('bob', 1_000, { ttlMs: 1_000 }));
    await expect(store.create(input('bob', 1_500))).rejects.toBeInstanceOf(TaskLimitError);
    // at t=2500 the first three have expired
    await store.sweep(2_500);
    await expect(store.create(input('bob', 2_500))).resolves.toMatchObject({ status: 'working' });
  });

  it('lists only the owner tasks, newest first, with a cursor that loses nothing', async () => {
    const store = await make(100);
    const mine: string[] = [];
    for (let i = 0; i < 7; i++) mine.push((await store.create(input('carol', 10_000 + i))).taskId);
    await store.create(input('mallory', 20_000));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await store.list('carol', { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.tasks.map((t) => t.taskId));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([...mine].reverse());
    await expect(store.list('carol', { limit: 3, cursor: 'garbage' })).rejects.toMatchObject({ code: -32602 });
  });

  it('finds running tasks whose lease expired', async () => {
    const store = await make(100);
    const stale = await store.create(input('dave', 1_000, { leaseMs: 1_000 }));
    const fresh = await store.create(input('dave', 1_000, { leaseMs: 100_000 }));
    const finished = await store.create(input('dave', 1_000, { leaseMs: 1_000 }));
    await store.update(finished.taskId, { status: 'failed', statusMessage: 'x' }, 1_500);
    const expired = (await store.expiredLeases(5_000, 10)).map((t) => t.taskId);
    expect(expired).toContain(stale.taskId);
    expect(expired).not.toContain(fresh.taskId);
    expect(expired).not.toContain(finished.taskId);
  });

  it('keeps why a lease was released and the handover count, and forgets the release when patched away', async () => {
    const store = await make(100);
    const t = await store.create(input('erin', 1_000));
    expect(t.release).toBeUndefined();
    expect(t.handovers).toBeUndefined();
    const release = { reason: 'planned_stop' as const, instance: 'instance-a', at: 1_200 };
    const released = await store.update(t.taskId, { leaseExpiresAt: 0, release }, 1_200);
    expect(released).toMatchObject({ leaseOwner: 'instance-a', leaseExpiresAt: 0, release });
    expect((await store.expiredLeases(1_300, 10)).find((x) => x.taskId === t.taskId)?.release).toEqual(release);
    const claimed = await store.updateIfVersion(t.taskId, 2, { leaseOwner: 'instance-b', leaseExpiresAt: 11_300, attempts: 2, handovers: 1, release: undefined }, 1_300);
    expect(claimed).toMatchObject({ leaseOwner: 'instance-b', attempts: 2, handovers: 1 });
    expect(claimed?.release).toBeUndefined();
    expect(await store.get(t.taskId)).toEqual(claimed);
  });

  it('creates 1,000 tasks concurrently with none lost or duplicated', async () => {
    const store = await make(5_000);
    const created = await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.create(input(`owner-${i % 10}`, 50_000 + i))));
    const ids = new Set(created.map((t) => t.taskId));
    expect(ids.size).toBe(1_000);
    let listed = 0;
    for (let o = 0; o < 10; o++) {
      let cursor: string | undefined;
      for (;;) {
        const page = await store.list(`owner-${o}`, { limit: 50, ...(cursor ? { cursor } : {}) });
        listed += page.tasks.length;
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
    }
    expect(listed).toBe(1_000);
  });
});

describe('PostgreSQL task store migration tasks-004 (release reason, handovers)', () => {
  it('keeps rows written before it: read as never released, no handover, their runs as they were', async () => {
    const old = await createTestSchema('tasks_migrate');
    try {
      await runMigrations(old.pool, TASK_MIGRATIONS.filter((m) => m.id < 'tasks-004'));
      await old.pool.query(
        `INSERT INTO fa_mcp_tasks (task_id, owner, tool_name, arguments, status, created_at, updated_at, ttl_ms, expires_at, poll_interval_ms, lease_owner, lease_expires_at, version, attempts)
         VALUES ('before', 'alice', 'report', '{}', 'working', 1000, 1000, 60000, 61000, 500, 'gone', 2000, 3, 2)`,
      );
      const store = new PostgresTaskStore(old.pool, { maxTasks: 10 });
      await store.migrate();
      const row = await store.get('before');
      expect(row).toMatchObject({ taskId: 'before', attempts: 2, leaseOwner: 'gone', version: 3 });
      expect(row?.release).toBeUndefined();
      expect(row?.handovers).toBeUndefined();
      expect((await store.expiredLeases(5_000, 10)).map((t) => t.taskId)).toEqual(['before']);
    } finally {
      await old.drop();
    }
  });
});
