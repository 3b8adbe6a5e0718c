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
  /** A refusal of a budget as the client sees it; anything else is the store's own failure, passed on. */
  const refusal = (err: unknown, name: string, key: string): unknown => {
    if (!(err instanceof RateLimiterRes)) return err; // the store itself failed
    opts.onRefused?.(name, key);
    const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    return new RateLimitedError(`Rate limit exceeded; retry after ${retryAfter} s`, retryAfter, { scope: opts.scope });
  };
  /**
   * Spends the budgets in turn (a refused one stops the rest). A chain of thens, not an async
   * function: every request comes through here, and the async layer cost each a promise and a turn.
   */
  const admit = (key: string, name: string, general: RateLimiterAbstract | undefined, methodLimiter: RateLimiterAbstract | undefined, toolLimiter: RateLimiterAbstract | undefined): Promise<unknown> | undefined => {
    let spent: Promise<unknown> | undefined = general?.consume(key);
    if (methodLimiter) spent = spent ? spent.then(() => methodLimiter.consume(key)) : methodLimiter.consume(key);
    if (toolLimiter) spent = spent ? spent.then(() => toolLimiter.consume(`${key}|${name}`)) : toolLimiter.consume(`${key}|${name}`);
    return spent;
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
      let spent: Promise<unknown> | undefined;
      try {
        spent = admit(key, name, general, perMethod.get(op.method), isCall ? opts.perTool.get(name) : undefined);
      } catch (err) {
        return Promise.reject(refusal(err, name, key));
      }
      if (!spent) return next();
      return spent.then(next, (err: unknown) => Promise.reject(refusal(err, name, key)));
    },
  };
}
