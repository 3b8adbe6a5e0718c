/**
 * Windowed rate limits for every request (a general budget per scope key that
 * every method counts against but the handshake, plus per-method and per-tool
 * budgets), enforced before the handler runs. The handshake (`initialize`,
 * which never reaches the pipeline, and `server/discover`) spends only a
 * budget of its own, when `mcp.rateLimit.methods` gives it one. A refused request is `-32003` with
 * `data.retryAfter` in seconds; it never reaches the handler.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { callerKey, type LimitScope } from '../caller-key.js';
import { rateLimiterRes } from '../rate-limiter-lib.js';
import { RateLimitedError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';

export interface RateLimitStepOptions {
  scope: LimitScope;
  general: RateLimiterAbstract;
  perTool: ReadonlyMap<string, RateLimiterAbstract>;
  /** Budgets of single methods (`mcp.rateLimit.methods`), counted in addition to the general one. */
  perMethod?: ReadonlyMap<string, RateLimiterAbstract>;
  /** `name` is the tool of a tools/call, the method otherwise. */
  onRefused?: (name: string, key: string) => void;
}

/** The 2026-07-28 handshake: like `initialize`, outside the general budget. */
const HANDSHAKE = 'server/discover';

export function rateLimitStep(opts: RateLimitStepOptions): PipelineStep {
  const RateLimiterRes = rateLimiterRes();
  const perMethod = opts.perMethod ?? new Map<string, RateLimiterAbstract>();
  const admit = async (key: string, name: string, general: RateLimiterAbstract | undefined, methodLimiter: RateLimiterAbstract | undefined, toolLimiter: RateLimiterAbstract | undefined): Promise<void> => {
    try {
      if (general) await general.consume(key);
      if (methodLimiter) await methodLimiter.consume(key);
      if (toolLimiter) await toolLimiter.consume(`${key}|${name}`);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        opts.onRefused?.(name, key);
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new RateLimitedError(`Rate limit exceeded; retry after ${retryAfter} s`, retryAfter, { scope: opts.scope });
      }
      throw err; // the store itself failed
    }
  };
  return {
    name: 'rate-limit',
    // Every method: a flood of prompts/get or completion/complete spends the same budget as tool calls.
    run(op, next) {
      const key = callerKey(op.ctx, opts.scope);
      const isCall = op.method === 'tools/call';
      const name = isCall ? op.target.name : op.method;
      // The rest of the pipeline runs once every budget took the request (its errors are not the limiter's).
      const general = op.method === HANDSHAKE ? undefined : opts.general;
      return admit(key, name, general, perMethod.get(op.method), isCall ? opts.perTool.get(name) : undefined).then(next);
    },
  };
}
