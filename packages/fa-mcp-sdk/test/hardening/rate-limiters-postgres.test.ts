/**
 * createRateLimiters on a real PostgreSQL pool: two instances started side by
 * side share one budget per caller and per tool, so a caller cannot multiply
 * its budget by spreading calls over instances. (The same through the HTTP
 * path, `mcp.rateLimit.store: postgres`: test/state/rate-limit-shared.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiters, type RateLimiters } from '../../src/state/rate-limiters.js';

const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';
const schema = `rl_${randomBytes(4).toString('hex')}`;
const pools: pg.Pool[] = [];

const consumeAll = async (limiter: RateLimiters['general'], key: string, times: number) => {
  let allowed = 0;
  for (let i = 0; i < times; i++) {
    allowed += await limiter.consume(key).then(
      () => 1,
      () => 0,
    );
  }
  return allowed;
};

describe('rate limiters on PostgreSQL', () => {
  let a: RateLimiters;
  let b: RateLimiters;

  beforeAll(async () => {
    const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    // Two "instances", each with its own pool, started at the same moment (the table is created once).
    const settings = { maxRequests: 5, windowMs: 60_000, perTool: { costly: { maxRequests: 2 } } };
    const [pa, pb] = [new pg.Pool({ connectionString: url, max: 3 }), new pg.Pool({ connectionString: url, max: 3 })];
    pools.push(pa, pb);
    [a, b] = await Promise.all([createRateLimiters(settings, pa), createRateLimiters(settings, pb)]);
  });

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('shares one budget per caller across instances; other callers keep theirs', async () => {
    expect(await consumeAll(a.general, 'ip:10.0.0.1', 3)).toBe(3);
    expect(await consumeAll(b.general, 'ip:10.0.0.1', 5)).toBe(2); // 5 in all, whichever instance served them
    expect(await consumeAll(a.general, 'ip:10.0.0.1', 1)).toBe(0);
    expect(await consumeAll(b.general, 'ip:10.0.0.2', 5)).toBe(5);
    const refusal = await a.general.consume('ip:10.0.0.1').catch((res: { msBeforeNext: number }) => res);
    expect((refusal as { msBeforeNext: number }).msBeforeNext).toBeGreaterThan(0);
  });

  it('shares per-tool budgets too', async () => {
    const tool = (l: RateLimiters) => l.perTool.get('costly');
    expect(tool(a)).toBeDefined();
    expect(await consumeAll(tool(a)!, 'sub:alice|costly', 1)).toBe(1);
    expect(await consumeAll(tool(b)!, 'sub:alice|costly', 3)).toBe(1);
  });
});
