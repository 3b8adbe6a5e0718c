/**
 * The store of used assertion ids (the `jti` of ID-JAGs) alone, in memory and on a real
 * PostgreSQL, on an injected clock: an id is used once until it expires, then may be taken again
 * (its assertion would be refused as expired first); the memory store refuses rather than forgets
 * when full; two PostgreSQL stores on one database see one use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAssertionIds } from '../../src/state/assertion-ids-memory.js';
import { PostgresAssertionIds } from '../../src/state/assertion-ids-postgres.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

describe('used assertion ids in memory', () => {
  it('once until the expiry; full of live ids, it refuses instead of forgetting', async () => {
    let now = 1_000;
    const store = new MemoryAssertionIds(() => now, 2);
    expect(await store.firstUse('a', 2_000)).toBe(true);
    expect(await store.firstUse('a', 2_000)).toBe(false);
    expect(await store.firstUse('b', 5_000)).toBe(true);
    await expect(store.firstUse('c', 5_000)).rejects.toThrow(/Too many assertions/);
    now = 2_000; // a has expired: its place is free, and a may be taken again
    expect(await store.firstUse('c', 5_000)).toBe(true);
    expect(await store.firstUse('b', 5_000)).toBe(false);
  });
});

describe('used assertion ids in PostgreSQL', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await createTestSchema('jti');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('two stores on one database see one use; an expired id is taken over', async () => {
    let now = 1_000;
    const a = new PostgresAssertionIds(db.pool, () => now);
    const b = new PostgresAssertionIds(db.pool, () => now);
    await Promise.all([a.migrate(), b.migrate()]);
    expect(await a.firstUse('k1', 2_000)).toBe(true);
    expect(await b.firstUse('k1', 2_000)).toBe(false);
    const raced = await Promise.all([a.firstUse('k2', 3_000), b.firstUse('k2', 3_000)]);
    expect(raced.sort()).toEqual([false, true]);
    now = 2_000;
    expect(await b.firstUse('k1', 4_000)).toBe(true);
    expect(await a.firstUse('k1', 4_000)).toBe(false);
  });
});
