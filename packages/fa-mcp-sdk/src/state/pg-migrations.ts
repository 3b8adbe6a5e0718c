/**
 * Schema migrations for the framework's own tables: run at start, idempotent,
 * under a PostgreSQL advisory lock so two instances starting at once take
 * turns instead of colliding.
 */
import type { PgPool } from '../db/pg-types.js';

export interface Migration {
  /** Unique, ordered id, e.g. `tasks-001`. */
  id: string;
  sql: string;
}

const LOCK_KEY = 'fa-mcp-sdk:migrations';

export async function runMigrations(pool: PgPool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS fa_mcp_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ id: string }>('SELECT id FROM fa_mcp_migrations')).rows.map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO fa_mcp_migrations (id) VALUES ($1)', [m.id]);
        await client.query('COMMIT');
        applied.push(m.id);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.id} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  return applied;
}
