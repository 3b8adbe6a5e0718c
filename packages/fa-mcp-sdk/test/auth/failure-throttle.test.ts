/**
 * `webServer.auth.failureThrottle` over real HTTP on loopback: failed logins
 * are counted per client address (requests sent from 127.0.0.x source
 * addresses), per user name from one address, and per user name from every
 * address. Over the first two the answer is 429 with `Retry-After` and the
 * route's error body (JSON-RPC on the MCP routes, OAuth's JSON on /oauth/token
 * and createAuthMW routes); over the third every answer naming that user is
 * only slowed (`delayMs`), so the owner still gets in from its own address;
 * successes do not count; and on the PostgreSQL store two instances share the
 * counts. What a guesser from one address and one spread over many addresses
 * get, and what the owner gets meanwhile (Basic and /oauth/token), is the
 * `throttle` group of security-suite.test.ts; the slowing itself (the cap on
 * waiting requests) is tested alone in failure-throttle-slowdown.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ERROR_CODES } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { basic, expectSlowed, expectThrottled, guardedServer, sendFrom, startAuthServer, toolCall, type SentAnswer } from './helpers.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const PASSWORD = 'a-long-ops-password-42';
const CLIENT_SECRET = 'bot-secret-0123456789abcdefghij';

const mcpCall = (server: TestServer, headers: Record<string, string>, from?: string) =>
  sendFrom(server, '/mcp', {
    ...(from ? { from } : {}),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(toolCall('open_tool')),
  });

const tokenRequest = (server: TestServer, secret: string, from?: string) =>
  sendFrom(server, '/oauth/token', {
    ...(from ? { from } : {}),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic('reporting-bot', secret) },
    body: 'grant_type=client_credentials',
  });

const expectJsonRpcThrottled = (a: SentAnswer, blockSec: number) => {
  expectThrottled(a, blockSec);
  expect(a.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: MCP_ERROR_CODES.RATE_LIMITED, data: { retryAfter: Number(a.retryAfter) } } });
};

const authConfig = (throttle: Record<string, unknown>) => ({
  mcp: { responseMode: 'json', legacySse: true },
  webServer: {
    rest: { enabled: true },
    auth: {
      enabled: true,
      realm: 'throttle-test',
      basic: { username: 'ops', password: PASSWORD },
      jwtToken: { mode: 'embedded', issuer: 'https://mcp.throttle.test' },
      oauth: { clients: [{ clientId: 'reporting-bot', clientSecret: CLIENT_SECRET }] },
      failureThrottle: { blockSec: 120, ...throttle },
    },
  },
});

const data = () => ({ ...guardedServer([]), rest: { routes: [{ method: 'get' as const, path: '/ping', summary: 'Ping', handler: () => ({ pong: true }) }] } });

describe('failed-authentication throttle (memory store)', () => {
  const servers: TestServer[] = [];
  const start = async (throttle: Record<string, unknown>) => {
    const s = await startAuthServer(data(), STATELESS, authConfig(throttle));
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  it('the N+1-th failure from one address is 429 with Retry-After; then the right password too; another address is unaffected', async () => {
    const server = await start({ perAddress: 3, perUser: 1000 });
    for (let i = 0; i < 3; i++) expect((await mcpCall(server, basic('ops', `wrong-${i}`))).status).toBe(401);
    expectJsonRpcThrottled(await mcpCall(server, basic('ops', 'wrong-3')), 120);
    expectJsonRpcThrottled(await mcpCall(server, basic('ops', PASSWORD)), 120); // a right guess is not told apart
    expectJsonRpcThrottled(await mcpCall(server, basic('someone', 'else')), 120);
    // another address: its own budget
    expect((await mcpCall(server, basic('ops', PASSWORD), '127.0.0.2')).status).toBe(200);
    expect((await mcpCall(server, basic('ops', 'wrong'), '127.0.0.2')).status).toBe(401);
    // a verified signed token cannot be guessed: accepted from the blocked address
    const token = (await tokenRequest(server, CLIENT_SECRET, '127.0.0.3')).body.access_token as string;
    expect((await mcpCall(server, { Authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('a successful login does not count', async () => {
    const server = await start({ perAddress: 3, perUser: 1000 });
    for (let i = 0; i < 2; i++) expect((await mcpCall(server, basic('ops', 'wrong'))).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await mcpCall(server, basic('ops', PASSWORD))).status).toBe(200);
    expect((await mcpCall(server, basic('ops', 'wrong'))).status).toBe(401);
    expect((await mcpCall(server, basic('ops', 'wrong'))).status).toBe(429);
  });

  it('covers legacy SSE, REST routes and /oauth/token (OAuth error JSON there)', async () => {
    const server = await start({ perAddress: 2, perUser: 1000 });
    // unknown clients and wrong secrets on /oauth/token count for the address (and the client id)
    expect((await tokenRequest(server, 'wrong-secret')).status).toBe(401);
    expect((await sendFrom(server, '/api/ping', { method: 'GET', headers: basic('ops', 'wrong') })).status).toBe(401);
    const oauth = await tokenRequest(server, 'wrong-again');
    expectThrottled(oauth, 120);
    expect(oauth.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/Too many failed authentication attempts/) });
    expectThrottled(await tokenRequest(server, CLIENT_SECRET), 120); // the right secret while blocked
    const rest = await sendFrom(server, '/api/ping', { method: 'GET', headers: basic('ops', PASSWORD) });
    expectThrottled(rest, 120);
    expect(rest.body).toMatchObject({ error: 'temporarily_unavailable' });
    expectJsonRpcThrottled(await sendFrom(server, '/sse', { method: 'GET', headers: { accept: 'text/event-stream', ...basic('ops', PASSWORD) } }), 120);
    expectJsonRpcThrottled(await sendFrom(server, '/messages?sessionId=x', { headers: { 'content-type': 'application/json', ...basic('ops', 'x') }, body: '{}' }), 120);
  });

  it('off with failureThrottle.enabled: false', async () => {
    const server = await start({ enabled: false, perAddress: 1 });
    for (let i = 0; i < 5; i++) expect((await mcpCall(server, basic('ops', 'wrong'))).status).toBe(401);
  });
});

describe('failed-authentication throttle on PostgreSQL (mcp.rateLimit.store: postgres)', () => {
  let db: TestSchema;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    db = await createTestSchema('authfail');
  });
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await db?.drop();
  });

  it('two instances share the counts of an address, of a user name from it, and of a user name', async () => {
    const delayMs = 250;
    const config = {
      ...authConfig({ perAddress: 4, perUserAddress: 1000, perUser: 6, delayMs }),
      mcp: { responseMode: 'json', rateLimit: { store: 'postgres' } },
      db: { postgres: { dbs: { main: { url: db.url, poolSize: 2 } } } },
    };
    const [a, b] = await Promise.all([startAuthServer(data(), STATELESS, config), startAuthServer(data(), STATELESS, config)]);
    servers.push(a, b);
    expect((await mcpCall(a, basic('ops', 'w1'))).status).toBe(401);
    expect((await mcpCall(b, basic('ops', 'w2'))).status).toBe(401);
    expect((await mcpCall(a, basic('ops', 'w3'))).status).toBe(401);
    expect((await mcpCall(b, basic('ops', 'w4'))).status).toBe(401);
    expectJsonRpcThrottled(await mcpCall(a, basic('ops', 'w5')), 120); // the fifth failure, whichever instance
    expectJsonRpcThrottled(await mcpCall(b, basic('ops', PASSWORD)), 120);
    expect((await mcpCall(b, basic('ops', PASSWORD), '127.0.0.2')).status).toBe(200);
    // four failures of "ops" count for the name (not the 429); two more on b reach its budget of 6, and a then slows the next answer
    expect((await mcpCall(b, basic('ops', 'w6'), '127.0.0.3')).status).toBe(401);
    expect((await mcpCall(b, basic('ops', 'w7'), '127.0.0.5')).status).toBe(401);
    const owner = await mcpCall(a, basic('ops', PASSWORD), '127.0.0.4');
    expect(owner.status).toBe(200);
    expectSlowed(owner, delayMs);
    const { rows } = await db.pool.query<{ key: string }>("SELECT key FROM fa_mcp_rate_limits WHERE key LIKE 'authfail-%' ORDER BY key");
    const keys = rows.map((r) => r.key);
    expect(keys.filter((k) => k.startsWith('authfail-addr:'))).toEqual(['authfail-addr:127.0.0.1', 'authfail-addr:127.0.0.3', 'authfail-addr:127.0.0.5']);
    // the name is stored hashed, alone and with each address it failed from
    expect(keys.filter((k) => k.startsWith('authfail-pair:')).map((k) => k.replace(/^authfail-pair:[\w-]{32}\|/, ''))).toEqual(['127.0.0.1', '127.0.0.3', '127.0.0.5']);
    expect(keys.filter((k) => k.startsWith('authfail-user:'))).toEqual([expect.stringMatching(/^authfail-user:[\w-]{32}$/)]);
    expect(keys.join()).not.toContain('ops');
  });
});
