/** Used assertion ids in PostgreSQL (state/assertion-ids.ts): one use across every instance on the database, kept across restarts. */
import type { PgPool } from '../db/pg-types.js';
import type { UsedAssertionIds } from './assertion-ids.js';
import { runMigrations, type Migration } from './pg-migrations.js';

export const ASSERTION_ID_MIGRATIONS: readonly Migration[] = [
  {
    id: 'assertion-ids-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_used_assertions (key text PRIMARY KEY, expires_at bigint NOT NULL);
    CREATE INDEX IF NOT EXISTS fa_mcp_used_assertions_expires ON fa_mcp_used_assertions (expires_at);`,
  },
];

/** How often expired rows are deleted (by whichever call comes first after the interval). */
const SWEEP_EVERY_MS = 60_000;

export class PostgresAssertionIds implements UsedAssertionIds {
  private lastSweep = 0;

  constructor(
    private readonly pool: PgPool,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates the table (idempotent, under the migrations' advisory lock). */
  async migrate(): Promise<void> {
    await runMigrations(this.pool, ASSERTION_ID_MIGRATIONS);
  }

  async firstUse(key: string, expiresAtMs: number): Promise<boolean> {
    const now = this.now();
    // One statement decides: a new key is inserted, an expired one taken over; a live one is left alone (no row back).
    const { rows } = await this.pool.query<{ key: string }>(
      `INSERT INTO fa_mcp_used_assertions (key, expires_at) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE fa_mcp_used_assertions.expires_at <= $3
       RETURNING key`,
      [key, expiresAtMs, now],
    );
    if (now - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      void this.pool.query('DELETE FROM fa_mcp_used_assertions WHERE expires_at <= $1', [now]).catch(() => undefined);
    }
    return rows.length === 1;
  }
}

