/** The table of the PostgreSQL rate-limit store, apart from rate-limiter-flexible (state/rate-limiters.ts), so the public constant loads nothing. */
import type { Migration } from './pg-migrations.js';

export const RATE_LIMIT_TABLE = 'fa_mcp_rate_limits';

/** The table rate-limiter-flexible expects (its own CREATE would race between instances). */
export const RATE_LIMIT_MIGRATIONS: readonly Migration[] = [
  {
    id: 'rate-limits-001',
    sql: `CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
  },
];
