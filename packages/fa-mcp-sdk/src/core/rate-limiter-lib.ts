/**
 * The classes of rate-limiter-flexible that fa-mcp-sdk uses, each required from its own file:
 * the package's index requires every store it supports (Redis, Mongo, MySQL, DynamoDB, Prisma,
 * Etcd…, about 30 modules), which a start would load for the in-memory limiter alone (issue 24:
 * cold start). The files are the ones the index requires, so the classes are the same objects
 * (test/core/steps/rate-limiter-lib.test.ts holds that).
 */
import type { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { requireCjs } from './require-cjs.js';

/** What a limiter rejects with when the budget is spent (checked with instanceof). */
export function rateLimiterRes(): typeof RateLimiterRes {
  return requireCjs<typeof RateLimiterRes>('rate-limiter-flexible/lib/RateLimiterRes.js');
}

export function rateLimiterMemory(): typeof RateLimiterMemory {
  return requireCjs<typeof RateLimiterMemory>('rate-limiter-flexible/lib/RateLimiterMemory.js');
}

export function rateLimiterPostgres(): typeof RateLimiterPostgres {
  return requireCjs<typeof RateLimiterPostgres>('rate-limiter-flexible/lib/RateLimiterPostgres.js');
}
