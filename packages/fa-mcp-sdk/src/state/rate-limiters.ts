/**
 * Builds the rate limiters of `mcp.rateLimit`: in memory by default, or on
 * PostgreSQL (shared by every instance) when a pool is given.
 */
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  maxRequests: number;
  windowMs: number;
  perTool: Record<string, { maxRequests: number; windowMs?: number }>;
}

export interface RateLimiters {
  general: RateLimiterAbstract;
  perTool: Map<string, RateLimiterAbstract>;
}

/** A pg Pool (typed loosely: rate-limiter-flexible accepts any pg client). */
export type PgPoolLike = object;

export async function createRateLimiters(settings: RateLimitSettings, pgPool?: PgPoolLike): Promise<RateLimiters> {
  const make = async (keyPrefix: string, points: number, windowMs: number): Promise<RateLimiterAbstract> => {
    const duration = Math.max(1, Math.ceil(windowMs / 1000));
    if (!pgPool) return new RateLimiterMemory({ keyPrefix, points, duration });
    return new Promise<RateLimiterAbstract>((resolve, reject) => {
      const limiter: RateLimiterAbstract = new RateLimiterPostgres(
        { storeClient: pgPool, storeType: 'pool', tableName: 'fa_mcp_rate_limits', keyPrefix, points, duration },
        (err?: Error) => (err ? reject(err) : resolve(limiter)),
      );
    });
  };
  const general = await make('mcp', settings.maxRequests, settings.windowMs);
  const perTool = new Map<string, RateLimiterAbstract>();
  for (const [tool, s] of Object.entries(settings.perTool)) {
    perTool.set(tool, await make(`mcp-tool-${tool}`, s.maxRequests, s.windowMs ?? settings.windowMs));
  }
  return { general, perTool };
}
