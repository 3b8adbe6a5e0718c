/**
 * Windowed rate limits for tool calls (a general budget per scope key, plus
 * per-tool budgets), enforced before the handler runs. A refused call is
 * `-32003` with `data.retryAfter` in seconds; it never reaches the handler.
 */
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { callerKey, type LimitScope } from '../caller-key.js';
import { RateLimitedError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';

export interface RateLimitStepOptions {
  scope: LimitScope;
  general: RateLimiterAbstract;
  perTool: ReadonlyMap<string, RateLimiterAbstract>;
  onRefused?: (tool: string, key: string) => void;
}

export function rateLimitStep(opts: RateLimitStepOptions): PipelineStep {
  const admit = async (key: string, tool: string, toolLimiter: RateLimiterAbstract | undefined): Promise<void> => {
    try {
      await opts.general.consume(key);
      if (toolLimiter) await toolLimiter.consume(`${key}|${tool}`);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        opts.onRefused?.(tool, key);
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new RateLimitedError(`Rate limit exceeded; retry after ${retryAfter} s`, retryAfter, { scope: opts.scope });
      }
      throw err; // the store itself failed
    }
  };
  return {
    name: 'rate-limit',
    methods: ['tools/call'],
    run(op, next) {
      const key = callerKey(op.ctx, opts.scope);
      const tool = typeof op.params.name === 'string' ? op.params.name : '';
      // The rest of the pipeline runs once both budgets took the call (its errors are not the limiter's).
      return admit(key, tool, opts.perTool.get(tool)).then(next);
    },
  };
}
