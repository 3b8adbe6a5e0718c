/**
 * The security suite: requests that try to get in. Every case asserts the
 * refusal (status, challenge, JSON-RPC error) and that no tool handler ran.
 * The requests are real HTTP tools/call requests to the stateless 2025 path,
 * which needs no initialize: accepted, they would run the tool at once.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MCP_ERROR_CODES } from '../../src/index.js';
import { mintLegacyToken } from '../../src/auth/jwt-legacy-aes-ctr.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import {
  basic,
  bearer,
  decodePart,
  expectSlowed,
  expectThrottled,
  guardedServer,
  rawPost,
  rsaKeyPair,
  sendFrom,
  signJwt,
  startAuthServer,
  tamperJwt,
  toolCall,
  unsignedJwt,
  type KeyPair,
  type RawResponse,
  type SentAnswer,
} from './helpers.js';
import { metricsUrl, sample, scrape } from '../ops2/helpers.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const ISS = 'https://idp.example.test';
const AUD = 'mcp-security-suite';
const SERVER_TOKEN = 'st-9f2c1e7a5b3d4c6e8a0b2d4f6a8c0e1b';
const BASIC_PASSWORD = 'pa:ss:w0rd-with-colons';
const REVOKED_JTI = randomUUID();
const LEGACY_KEY = 'legacy-shared-secret-0123456789abcdef';

describe('security suite: refusals never reach a handler', () => {
  const calls: string[] = [];
  let rsa: KeyPair;
  let server: TestServer;
  let base: string;
  let legacy: TestServer;

  const valid = (o: Parameters<typeof signJwt>[1] = {}) => signJwt(rsa.privateKey, { iss: ISS, aud: AUD, ...o });
  const call = (headers: Record<string, string>, tool = 'open_tool', path = '/mcp') => rawPost(base, path, toolCall(tool), headers);
  const expectRefused = (r: RawResponse, status: number, error?: string, why?: RegExp) => {
    expect(r.status).toBe(status);
    const challenge = r.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="sec-test"/);
    if (why) expect(challenge).toMatch(why);
    if (error) expect(challenge).toContain(`error="${error}"`);
    else expect(challenge).not.toContain('error=');
    expect(calls).toEqual([]);
  };

  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const auth = {
      enabled: true,
      realm: 'sec-test',
      permanentServerTokens: [SERVER_TOKEN],
      basic: { username: 'ops', password: BASIC_PASSWORD },
      jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD, clockToleranceSec: 5 },
      revoked: { subjects: ['mallory'], tokenIds: [REVOKED_JTI] },
    };
    server = await startAuthServer(guardedServer(calls), STATELESS, { mcp: { responseMode: 'json' }, webServer: { auth } });
    base = server.handle.url as string;
    legacy = await startAuthServer(guardedServer(calls), STATELESS, {
      mcp: { responseMode: 'json' },
      webServer: { auth: { enabled: true, realm: 'sec-test', jwtToken: { mode: 'legacyAesCtr', encryptKey: LEGACY_KEY } } },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await legacy?.stop();
  });
  beforeEach(() => {
    calls.length = 0;
  });

  it('control: a valid token, server token and Basic login do run the tool', async () => {
    for (const headers of [bearer(await valid()), bearer(SERVER_TOKEN), basic('ops', BASIC_PASSWORD)]) {
      const r = await call(headers);
      expect(r.status).toBe(200);
      expect((r.body.result as { isError?: boolean }).isError).toBeUndefined();
    }
    expect(calls).toEqual(['open_tool', 'open_tool', 'open_tool']);
  });

  it('no token: 401 with the realm and resource_metadata, no error code', async () => {
    const r = await call({});
    expectRefused(r, 401);
    expect(r.headers.get('www-authenticate')).toMatch(/resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', error: { code: MCP_ERROR_CODES.FORBIDDEN, data: { error: 'missing' } } });
  });

  it('garbage token: 401 invalid_token', async () => {
    expectRefused(await call(bearer('garbage')), 401, 'invalid_token');
    expectRefused(await call(bearer('a.b.c')), 401, 'invalid_token');
  });

  it('alg none: 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectRefused(await call(bearer(unsignedJwt({ sub: 'alice', iss: ISS, aud: AUD, iat: now, exp: now + 300 }))), 401, 'invalid_token', /algorithm|malformed/);
  });

  it('algorithm confusion (HS256 signed with the RS public key): 401 invalid_token', async () => {
    const token = await signJwt(new TextEncoder().encode(rsa.publicPem), { alg: 'HS256', iss: ISS, aud: AUD });
    expectRefused(await call(bearer(token)), 401, 'invalid_token', /algorithm/);
    // and the same with a hand-made HMAC over the DER bytes of the key
    const [h, p] = (await valid()).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const sig = createHmac('sha256', rsa.publicKey.export({ format: 'der', type: 'spki' })).update(`${header}.${p}`).digest('base64url');
    expect(h).toBeDefined();
    expectRefused(await call(bearer(`${header}.${p}.${sig}`)), 401, 'invalid_token');
  });

  it('expired: 401 invalid_token (beyond the clock tolerance)', async () => {
    const r = await call(bearer(await valid({ expIn: -60 })));
    expectRefused(r, 401, 'invalid_token');
    expect(r.headers.get('www-authenticate')).toContain('expired');
  });

  it('not yet valid (nbf in the future): 401 invalid_token', async () => {
    expectRefused(await call(bearer(await valid({ nbfIn: 120 }))), 401, 'invalid_token', /not valid yet/);
  });

  it('issued in the future (iat beyond the clock tolerance): 401 invalid_token; within the tolerance: accepted', async () => {
    expectRefused(await call(bearer(await valid({ iatIn: 120 }))), 401, 'invalid_token', /issued in the future/);
    const skewed = await call(bearer(await valid({ iatIn: 3 }))); // clockToleranceSec is 5
    expect(skewed.status).toBe(200);
    expect(calls).toEqual(['open_tool']);
  });

  it('no exp: 401 invalid_token (exp is required)', async () => {
    expectRefused(await call(bearer(await valid({ expIn: null }))), 401, 'invalid_token');
  });

  it('an algorithm of the same key type outside the allow-list (PS256 where RS256 is allowed): 401 invalid_token', async () => {
    const pss = await valid({ alg: 'PS256' });
    expect(decodePart(pss.split('.')[0] as string).alg).toBe('PS256');
    expectRefused(await call(bearer(pss)), 401, 'invalid_token', /algorithm/);
  });

  it('wrong issuer: 401 invalid_token', async () => {
    expectRefused(await call(bearer(await valid({ iss: 'https://evil.example' }))), 401, 'invalid_token', /unexpected issuer/);
  });

  it('wrong audience: 401 invalid_token', async () => {
    expectRefused(await call(bearer(await valid({ aud: 'another-service' }))), 401, 'invalid_token', /another audience/);
  });

  it('tampered payload (signature kept): 401 invalid_token', async () => {
    const token = tamperJwt(await valid({ sub: 'alice' }), (c) => {
      c.sub = 'admin';
      c.scope = 'reports:write';
    });
    expectRefused(await call(bearer(token), 'scoped_tool'), 401, 'invalid_token', /signature is invalid/);
  });

  it('a revoked token and a revoked user: 401 invalid_token', async () => {
    expectRefused(await call(bearer(await valid({ claims: { jti: REVOKED_JTI } }))), 401, 'invalid_token', /revoked/);
    expectRefused(await call(bearer(await valid({ sub: 'mallory' }))), 401, 'invalid_token', /revoked/);
  });

  it('a token in the query string while that is off: 400 invalid_request, even a valid one', async () => {
    const token = await valid();
    const r = await call({}, 'open_tool', `/mcp?access_token=${token}`);
    expectRefused(r, 400, 'invalid_request');
    expectRefused(await call({}, 'open_tool', `/mcp?token=${SERVER_TOKEN}`), 400, 'invalid_request');
  });

  it('a missing scope: JSON-RPC -32001 insufficient_scope naming the scope', async () => {
    const r = await call(bearer(await valid({ claims: { scope: 'reports:read' } })), 'scoped_tool');
    expect(r.status).toBe(200);
    expect(r.body.error).toMatchObject({
      code: MCP_ERROR_CODES.FORBIDDEN,
      data: { error: 'insufficient_scope', scope: 'reports:write', requiredScopes: ['reports:write'], missingScopes: ['reports:write'] },
    });
    expect(calls).toEqual([]);
  });

  it('a missing group: JSON-RPC -32001 forbidden naming the group', async () => {
    const r = await call(bearer(await valid({ claims: { groups: ['mcp-users'] } })), 'group_tool');
    expect(r.body.error).toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN, data: { error: 'forbidden', requiredGroups: ['mcp-admins'] } });
    expect(calls).toEqual([]);
  });

  it('Basic with a wrong password of equal length: 401 with a Basic challenge', async () => {
    const wrong = BASIC_PASSWORD.slice(0, -1) + (BASIC_PASSWORD.endsWith('s') ? 't' : 's');
    expect(wrong).toHaveLength(BASIC_PASSWORD.length);
    const r = await call(basic('ops', wrong));
    expectRefused(r, 401);
    expect(r.headers.get('www-authenticate')).toContain('Basic realm="sec-test"');
    expectRefused(await call(basic('ops', BASIC_PASSWORD.split(':')[0] as string)), 401);
    expectRefused(await call(basic('opz', BASIC_PASSWORD)), 401);
  });

  it('a server token differing in the last character: 401 invalid_token', async () => {
    expectRefused(await call(bearer(`${SERVER_TOKEN.slice(0, -1)}x`)), 401, 'invalid_token');
  });

  it("a server token's prefix, suffix, extension or other case: 401 invalid_token", async () => {
    const near = [SERVER_TOKEN.slice(0, -1), SERVER_TOKEN.slice(0, 8), SERVER_TOKEN.slice(1), `${SERVER_TOKEN}0`, `0${SERVER_TOKEN}`, SERVER_TOKEN.toUpperCase()];
    for (const token of near) expectRefused(await call(bearer(token)), 401, 'invalid_token');
  });

  it('legacyAesCtr: an edited expiry, a flipped ciphertext byte, a missing tag and a foreign key are refused', async () => {
    const legacyBase = legacy.handle.url as string;
    const good = mintLegacyToken(LEGACY_KEY, { subject: 'alice', ttlSec: 60 }).token;
    const ok = await rawPost(legacyBase, '/mcp', toolCall('open_tool'), bearer(good));
    expect(ok.status).toBe(200);
    calls.length = 0;
    const [expire, cipher, tag] = good.split('.') as [string, string, string];
    const later = `${Number(expire) + 86_400_000}.${cipher}.${tag}`;
    const flipped = `${expire}.${cipher.slice(0, 40)}${cipher[40] === '0' ? '1' : '0'}${cipher.slice(41)}.${tag}`;
    const untagged = `${expire}.${cipher}`;
    const foreign = mintLegacyToken('another-secret-entirely-0123456789', { subject: 'alice', ttlSec: 60 }).token;
    for (const token of [later, flipped, untagged, foreign]) {
      const r = await rawPost(legacyBase, '/mcp', toolCall('open_tool'), bearer(token));
      expect(r.status, token.slice(0, 20)).toBe(401);
      expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect(calls).toEqual([]);
  });
});

/**
 * The red team's `throttle` group: a guesser of one account from one address
 * is refused (429, `Retry-After`), a guesser spread over many addresses is only
 * slowed, and the owner, from an address of its own, gets in either way — a
 * user name or an OAuth `client_id` is not a secret, so guessing it must not
 * lock its owner out. Client addresses are loopback source addresses
 * (127.0.0.x), distinct clients to the server.
 */
describe('security suite: throttle', () => {
  const calls: string[] = [];
  const DELAY_MS = 300;
  const BLOCK_SEC = 120;
  const CLIENT_SECRET = 'bot-secret-0123456789abcdefghijkl';
  let server: TestServer;

  const login = (password: string, from: string) =>
    sendFrom(server, '/mcp', {
      from,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...basic('ops', password) },
      body: JSON.stringify(toolCall('open_tool')),
    });
  const clientLogin = (clientId: string, secret: string, from: string) =>
    sendFrom(server, '/oauth/token', { from, headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(clientId, secret) }, body: 'grant_type=client_credentials' });
  /** Wrong guesses from each address in turn, each answered 401 (a refusal, never the tool). */
  const guessFrom = async (addresses: string[], guess: (from: string) => Promise<SentAnswer>) => {
    const answers: SentAnswer[] = [];
    for (const from of addresses) answers.push(await guess(from));
    for (const a of answers) expect(a.status).toBe(401);
    return answers;
  };
  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

  // A fresh server (fresh counts) for each case.
  beforeEach(async () => {
    calls.length = 0;
    server = await startAuthServer(guardedServer(calls), STATELESS, {
      mcp: { responseMode: 'json' },
      webServer: {
        auth: {
          enabled: true,
          realm: 'sec-test',
          basic: { username: 'ops', password: BASIC_PASSWORD },
          jwtToken: { mode: 'embedded', issuer: 'https://mcp.sec-throttle.test' },
          oauth: { clients: [{ clientId: 'reporting-bot', clientSecret: CLIENT_SECRET }] },
          // budgets small enough to reach in a test; every other key at its default
          failureThrottle: { perAddress: 1000, perUserAddress: 3, perUser: 5, blockSec: BLOCK_SEC, delayMs: DELAY_MS },
        },
      },
    });
  });
  afterEach(async () => {
    await server?.stop();
  });

  it('Basic, one address: the guesser gets 429 with Retry-After (its right password too); the owner from another address gets in', async () => {
    await guessFrom(['127.0.0.100', '127.0.0.100', '127.0.0.100'], (from) => login('guess', from));
    expectThrottled(await login('guess', '127.0.0.100'), BLOCK_SEC);
    const rightButBlocked = await login(BASIC_PASSWORD, '127.0.0.100');
    expectThrottled(rightButBlocked, BLOCK_SEC);
    expect(rightButBlocked.body).toMatchObject({ error: { code: MCP_ERROR_CODES.RATE_LIMITED } });
    expect(calls).toEqual([]);
    const owner = await login(BASIC_PASSWORD, '127.0.0.101');
    expect(owner.status).toBe(200);
    expect(calls).toEqual(['open_tool']);
    // both 429s are counted under the reason `throttled`
    const metrics = await scrape(metricsUrl(server.handle.url as string));
    expect(sample(metrics.text, 'mcp_auth_failures_total', { reason: 'throttled' })).toBe(2);
  });

  it('Basic, many addresses: the account is slowed (every answer waits), never refused; the owner from a clean address gets in after the delay', async () => {
    // perUser is 5: five failures from five addresses, each within its own budget, reach it
    await guessFrom(range(110, 5), (from) => login('guess', from));
    const slowed = await guessFrom(range(115, 4), (from) => login('guess', from));
    for (const a of slowed) expectSlowed(a, DELAY_MS);
    expect(calls).toEqual([]);
    const owner = await login(BASIC_PASSWORD, '127.0.0.120');
    expect(owner.status).toBe(200);
    expectSlowed(owner, DELAY_MS);
    expect(calls).toEqual(['open_tool']);
  });

  it('/oauth/token: a client_id guessed from one address is 429 there only; guessed from many it is slowed; the right secret from a clean address gets a token', async () => {
    await guessFrom(['127.0.0.130', '127.0.0.130', '127.0.0.130'], (from) => clientLogin('reporting-bot', 'wrong', from));
    expectThrottled(await clientLogin('reporting-bot', 'wrong', '127.0.0.130'), BLOCK_SEC);
    const blocked = await clientLogin('reporting-bot', CLIENT_SECRET, '127.0.0.130');
    expectThrottled(blocked, BLOCK_SEC);
    expect(blocked.body).toMatchObject({ error: 'temporarily_unavailable' });
    expect(blocked.body).not.toHaveProperty('access_token');
    expect((await clientLogin('reporting-bot', CLIENT_SECRET, '127.0.0.131')).status).toBe(200);
    // three failures of the client id count so far (the 429 does not: it came from a blocked place); two more reach perUser 5
    await guessFrom(range(132, 2), (from) => clientLogin('reporting-bot', 'wrong', from));
    const slowed = await guessFrom(range(134, 3), (from) => clientLogin('reporting-bot', 'wrong', from));
    for (const a of slowed) expectSlowed(a, DELAY_MS);
    const owner = await clientLogin('reporting-bot', CLIENT_SECRET, '127.0.0.140');
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toEqual(expect.any(String));
    expectSlowed(owner, DELAY_MS);
  });
});
