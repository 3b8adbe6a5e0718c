/** Picks the store of used assertion ids (state/assertion-ids.ts): PostgreSQL on a pool, else memory. */
import type { PgPool } from '../db/pg-types.js';
import type { UsedAssertionIds } from './assertion-ids.js';
import { MemoryAssertionIds } from './assertion-ids-memory.js';
import { PostgresAssertionIds } from './assertion-ids-postgres.js';

/** The store of used assertion ids: PostgreSQL on `pool` (migrated here), else memory. */
export async function createUsedAssertionIds(pool?: PgPool): Promise<UsedAssertionIds> {
  if (!pool) return new MemoryAssertionIds();
  const store = new PostgresAssertionIds(pool);
  await store.migrate();
  return store;
}
