/**
 * Builds the rate limiters of `mcp.rateLimit`: in memory by default, or on
 * PostgreSQL (one budget shared by every instance) when a pool is given. The
 * table is created by the migrations (under their advisory lock). When
 * PostgreSQL fails at call time, each instance falls back to an in-memory
 * budget of the same size until it answers again.
 */
import type { PgPool } from '../db/pg-types.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimiterMemory, rateLimiterPostgres } from '../core/rate-limiter-lib.js';
import { runMigrations } from './pg-migrations.js';
import { RATE_LIMIT_MIGRATIONS, RATE_LIMIT_TABLE as TABLE } from './rate-limit-migrations.js';

export interface RateLimitSettings {
  maxRequests: number;
  windowMs: number;
  perTool: Record<string, { maxRequests: number; windowMs?: number }>;
  /** Budgets of single methods (`mcp.rateLimit.methods`, e.g. `prompts/get`). */
  methods?: Record<string, { maxRequests: number; windowMs?: number }>;
}

export interface RateLimiters {
  general: RateLimiterAbstract;
  perTool: Map<string, RateLimiterAbstract>;
  perMethod: Map<string, RateLimiterAbstract>;
}

export { RATE_LIMIT_MIGRATIONS };

/**
 * `prefix` names the budget (`mcp`: tool calls; `rest`: the REST routes), so
 * limiters with the same settings on the same store keep separate budgets;
 * `clearExpired: false` leaves the periodic cleanup of expired rows to another set.
 */
export async function createRateLimiters(settings: RateLimitSettings, pgPool?: PgPool, opts: { prefix?: string; clearExpired?: boolean } = {}): Promise<RateLimiters> {
  if (pgPool) await runMigrations(pgPool, RATE_LIMIT_MIGRATIONS);
  const prefix = opts.prefix ?? 'mcp';
  const RateLimiterMemory = rateLimiterMemory();
  let first = opts.clearExpired ?? true;
  const make = (keyPrefix: string, points: number, windowMs: number): RateLimiterAbstract => {
    const duration = Math.max(1, Math.ceil(windowMs / 1000));
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!pgPool) return memory;
    const RateLimiterPostgres = rateLimiterPostgres();
    // one limiter is enough to clear expired rows (every 5 minutes)
    const clearExpiredByTimeout = first;
    first = false;
    return new RateLimiterPostgres({
      storeClient: pgPool,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: memory,
    });
  };
  const general = make(prefix, settings.maxRequests, settings.windowMs);
  const perTool = new Map<string, RateLimiterAbstract>();
  for (const [tool, s] of Object.entries(settings.perTool)) {
    perTool.set(tool, make(`${prefix}-tool-${tool}`, s.maxRequests, s.windowMs ?? settings.windowMs));
  }
  const perMethod = new Map<string, RateLimiterAbstract>();
  for (const [method, s] of Object.entries(settings.methods ?? {})) {
    perMethod.set(method, make(`${prefix}-method-${method}`, s.maxRequests, s.windowMs ?? settings.windowMs));
  }
  return { general, perTool, perMethod };
}

export interface StoreLimiterOptions {
  /** Names the budget in the shared table (`<keyPrefix>:<key>`). */
  keyPrefix: string;
  points: number;
  durationSec: number;
  /** Once over `points`, the key stays refused this long (0: until the window ends). */
  blockSec?: number;
  /** This limiter clears expired rows of the table every 5 minutes (one per set is enough). */
  clearExpired?: boolean;
}

/**
 * One limiter on the same store as `mcp.rateLimit` (the failed-authentication
 * throttle's): in memory, or on PostgreSQL with an in-memory fallback of the
 * same size while the database does not answer.
 */
export async function createStoreLimiter(opts: StoreLimiterOptions, pgPool?: PgPool): Promise<RateLimiterAbstract> {
  const settings = { keyPrefix: opts.keyPrefix, points: opts.points, duration: opts.durationSec, blockDuration: opts.blockSec ?? 0 };
  const RateLimiterMemory = rateLimiterMemory();
  const memory = new RateLimiterMemory(settings);
  if (!pgPool) return memory;
  const RateLimiterPostgres = rateLimiterPostgres();
  await runMigrations(pgPool, RATE_LIMIT_MIGRATIONS);
  return new RateLimiterPostgres({ ...settings, storeClient: pgPool, storeType: 'pool', tableName: TABLE, tableCreated: true, clearExpiredByTimeout: opts.clearExpired ?? false, insuranceLimiter: memory });
}

/**
 * The three counters of the failed-authentication throttle (`webServer.auth.failureThrottle`), on
 * this store: per address and per user name from one address (both block for `blockSec` once over
 * their budget), and per user name from every address (no block: the throttle only slows it).
 */
export async function createFailureLimiters(
  settings: { perAddress: number; perUserAddress: number; perUser: number; windowSec: number; blockSec: number },
  pgPool?: PgPool,
): Promise<{ byAddress: RateLimiterAbstract; byUserAddress: RateLimiterAbstract; byUser: RateLimiterAbstract }> {
  const blocking = { durationSec: settings.windowSec, blockSec: settings.blockSec };
  const [byAddress, byUserAddress, byUser] = await Promise.all([
    createStoreLimiter({ keyPrefix: 'authfail-addr', points: settings.perAddress, ...blocking, clearExpired: true }, pgPool),
    createStoreLimiter({ keyPrefix: 'authfail-pair', points: settings.perUserAddress, ...blocking }, pgPool),
    createStoreLimiter({ keyPrefix: 'authfail-user', points: settings.perUser, durationSec: settings.windowSec }, pgPool),
  ]);
  return { byAddress, byUserAddress, byUser };
}
