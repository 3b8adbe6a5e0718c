/**
 * core/rate-limiter-lib.ts requires rate-limiter-flexible's classes from their own files (its
 * index loads every store it supports): they must be the very classes of the package's index, so
 * `instanceof` holds for a refusal from any limiter, and the step refuses with -32003 as before.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { rateLimiterMemory, rateLimiterPostgres, rateLimiterRes } from '../../../src/core/rate-limiter-lib.js';
import { rateLimitStep } from '../../../src/core/steps/rate-limit.js';
import { RateLimitedError } from '../../../src/core/errors.js';
import type { Operation } from '../../../src/core/pipeline.js';

const index = createRequire(import.meta.url)('rate-limiter-flexible') as typeof import('rate-limiter-flexible');

describe('the classes of rate-limiter-flexible, file by file', () => {
  it('are the classes of the package index', () => {
    expect(rateLimiterRes()).toBe(index.RateLimiterRes);
    expect(rateLimiterMemory()).toBe(index.RateLimiterMemory);
    expect(rateLimiterPostgres()).toBe(index.RateLimiterPostgres);
  });

  it('refuse a spent budget with a RateLimiterRes, which the step turns into RateLimitedError', async () => {
    const Memory = rateLimiterMemory();
    const limiter = new Memory({ points: 1, duration: 60 });
    await limiter.consume('k');
    await expect(limiter.consume('k')).rejects.toBeInstanceOf(index.RateLimiterRes);
    const step = rateLimitStep({ scope: 'global', general: new Memory({ points: 1, duration: 60 }), perTool: new Map() });
    const op = { method: 'tools/list', target: { kind: 'list' }, ctx: {} } as unknown as Operation;
    await step.run(op, async () => 'ok');
    await expect(step.run(op, async () => 'ok')).rejects.toBeInstanceOf(RateLimitedError);
  });
});
