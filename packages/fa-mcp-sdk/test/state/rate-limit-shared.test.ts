/**
 * `mcp.rateLimit.store: postgres` through the HTTP path: two servers on one
 * database share one budget per caller (and per tool), so spreading calls over
 * instances does not multiply it; with the database gone each instance falls
 * back to an in-memory budget of the same size instead of failing every call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { expectToolError } from '../../src/testing/index.js';
import { connectHttpClient, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';
import { TcpProxy, urlVia } from '../db/pg-env.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('rl_http');
});
afterAll(async () => {
  await db?.drop();
});
afterEach(stopAllServers);

const calls: string[] = [];
const data: McpServerData = {
  tools: [
    { name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => (calls.push('ping'), formatToolResult('pong')) },
    { name: 'scarce', description: 'Has its own budget.', inputSchema: { type: 'object' }, handler: () => (calls.push('scarce'), formatToolResult('ok')) },
  ],
};

const limits = (url: string, extra: Record<string, unknown> = {}) => ({
  mcp: { rateLimit: { store: 'postgres', scope: 'ip', maxRequests: 4, windowMs: 60_000, perTool: { scarce: { maxRequests: 1 } }, ...extra } },
  db: { postgres: { dbs: { main: { url, poolSize: 2, connectionTimeoutMs: 500 } } } },
});

const withSearchPath = (url: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${db.schema}`)}`;

describe('rate limits on PostgreSQL (mcp.rateLimit.store: postgres)', () => {
  it('two instances share one budget per caller, general and per tool, on either era', async () => {
    await db.pool.query('DELETE FROM fa_mcp_rate_limits').catch(() => undefined);
    const [a, b] = await Promise.all([startTestServer(data, limits(db.url)), startTestServer(data, limits(db.url))]);
    const onA = (await connectHttpClient(serverUrl(a), { era: '2025' })).client;
    const onB = (await connectHttpClient(serverUrl(b), { era: '2026' })).client;
    calls.length = 0;
    expect((await onA.callTool({ name: 'scarce', arguments: {} })).isError).toBeFalsy();
    await expectToolError(onB.callTool({ name: 'scarce', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED); // its per-tool budget went on A
    await onA.callTool({ name: 'ping_tool', arguments: {} });
    await onB.callTool({ name: 'ping_tool', arguments: {} }); // 4 counted: scarce twice (the refused one too), ping twice
    const refused = await expectToolError(onA.callTool({ name: 'ping_tool', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED);
    expect((refused.data as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    await expectToolError(onB.callTool({ name: 'ping_tool', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED);
    expect(calls).toEqual(['scarce', 'ping', 'ping']); // no refused call reached a handler
    const { rows } = await db.pool.query<{ key: string; points: number }>('SELECT key, points FROM fa_mcp_rate_limits ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['mcp-tool-scarce:ip:127.0.0.1|scarce', 'mcp:ip:127.0.0.1']);
  });

  it('gives the REST routes their own budget on the same store, shared by the instances', async () => {
    await db.pool.query('DELETE FROM fa_mcp_rate_limits').catch(() => undefined);
    const withRest: McpServerData = {
      ...data,
      rest: { routes: [{ method: 'get', path: '/ping', summary: 'Ping', handler: () => ({ pong: true }) }] },
    };
    const config = { ...limits(db.url, { maxRequests: 2, perTool: {} }), webServer: { rest: { enabled: true } } };
    const [a, b] = await Promise.all([startTestServer(withRest, config), startTestServer(withRest, config)]);
    const restUrl = (s: typeof a) => new URL('/api/ping', serverUrl(s)).toString();
    expect((await fetch(restUrl(a))).status).toBe(200);
    expect((await fetch(restUrl(b))).status).toBe(200);
    const refused = await fetch(restUrl(a)); // the third call across both instances
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // tool calls keep a budget of their own
    const client = (await connectHttpClient(serverUrl(b), { era: '2025' })).client;
    expect((await client.callTool({ name: 'ping_tool', arguments: {} })).isError).toBeFalsy();
    const { rows } = await db.pool.query<{ key: string }>('SELECT key FROM fa_mcp_rate_limits ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['mcp:ip:127.0.0.1', 'rest:rest|ip:127.0.0.1']);
  });

  it('falls back to an in-memory budget per instance while PostgreSQL is unreachable', async () => {
    await db.pool.query('DELETE FROM fa_mcp_rate_limits').catch(() => undefined);
    const proxy = new TcpProxy();
    await proxy.open();
    try {
      const a = await startTestServer(data, limits(withSearchPath(urlVia(proxy.port)), { maxRequests: 2, perTool: {} }));
      const client = (await connectHttpClient(serverUrl(a), { era: '2025' })).client;
      await client.callTool({ name: 'ping_tool', arguments: {} }); // counted in PostgreSQL
      await proxy.close(); // the database is gone
      await client.callTool({ name: 'ping_tool', arguments: {} });
      await client.callTool({ name: 'ping_tool', arguments: {} });
      await expectToolError(client.callTool({ name: 'ping_tool', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED);
    } finally {
      await proxy.close();
    }
  });

  it('refuses to start when the database it names is not configured', async () => {
    await expect(startTestServer(data, { mcp: { rateLimit: { store: 'postgres', database: 'limits' } } })).rejects.toThrow(/Database "limits" is not configured/);
  });
});
