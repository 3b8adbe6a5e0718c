/**
 * The ID-JAG grant across instances and under pressure: a `jti` is used once
 * on every instance sharing the PostgreSQL store of `mcp.rateLimit` (two
 * servers on a real database), the failure throttle guards the client
 * authentication of the grant, an identity provider whose keys cannot be
 * fetched is a 503 (not a verdict on the caller), and unsafe configurations
 * of trusted identity providers stop the start, naming the key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { AuthConfigError, buildSchemes } from '../../src/auth/build-schemes.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { clientBasic, ecKeyPair, expectThrottled, freePort, guardedServer, sendFrom, startAuthServer, startJwksServer, type JwksServer, type KeyPair } from './helpers.js';
import { JWT_BEARER, presentIdJag, signIdJag } from './id-jag-helpers.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const IDP = 'https://idp.corp.example';
const WIKI: [string, string] = ['wiki', 'wiki-secret-0123456789abcdefghijkl'];

let key: KeyPair;
let jwks: JwksServer;
beforeAll(async () => {
  key = await ecKeyPair('idp-1');
  jwks = await startJwksServer([key.jwk]);
});
afterAll(async () => {
  await jwks?.close();
});

const authFor = (issuer: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  jwtToken: { mode: 'embedded', issuer },
  oauth: {
    clients: [{ clientId: WIKI[0], clientSecret: WIKI[1], scopes: ['reports:read'] }],
    trustedIdps: [{ issuer: IDP, jwksUrl: jwks.url, clientIds: ['wiki'] }],
  },
  ...extra,
});
const assertionFor = (issuer: string) => signIdJag({ iss: IDP, sub: 'alice', aud: issuer, client_id: 'wiki', resource: `${issuer}/mcp`, scope: 'reports:read' }, { key });

describe('a jti is used once across instances (PostgreSQL store of mcp.rateLimit)', () => {
  let db: TestSchema;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    db = await createTestSchema('idjag');
  });
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    await db?.drop();
  });

  it('an ID-JAG redeemed on one instance is refused on the other, and the other way round', async () => {
    // Two instances of one server behind one public URL: one issuer, one signing key.
    const issuer = 'https://mcp.corp.example';
    const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const config = {
      mcp: { rateLimit: { store: 'postgres' } },
      db: { postgres: { dbs: { main: { url: db.url, poolSize: 2 } } } },
      webServer: { auth: authFor(issuer, { publicUrl: issuer, jwtToken: { mode: 'embedded', issuer, privateKey } }) },
    };
    const [a, b] = await Promise.all([startAuthServer(guardedServer([]), STATELESS, config), startAuthServer(guardedServer([]), STATELESS, config)]);
    servers.push(a, b);
    const [urlA, urlB] = [a.handle.url as string, b.handle.url as string];

    const first = await assertionFor(issuer);
    expect((await presentIdJag(urlA, first, WIKI)).status).toBe(200);
    expect((await presentIdJag(urlB, first, WIKI)).body).toEqual({ error: 'invalid_grant', error_description: 'The ID-JAG has been used already (jti)' });
    const second = await assertionFor(issuer);
    expect((await presentIdJag(urlB, second, WIKI)).status).toBe(200);
    expect((await presentIdJag(urlA, second, WIKI)).body).toMatchObject({ error: 'invalid_grant' });
    // Presented to both at once, it is redeemed by exactly one.
    const raced = await assertionFor(issuer);
    const statuses = (await Promise.all([presentIdJag(urlA, raced, WIKI), presentIdJag(urlB, raced, WIKI)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    const rows = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM fa_mcp_used_assertions');
    expect(Number(rows.rows[0]?.n)).toBe(3);
  });
});

describe('the failure throttle guards the client authentication of the grant', () => {
  let server: TestServer;
  let issuer: string;
  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    server = await startAuthServer(guardedServer([]), STATELESS, { webServer: { port, auth: authFor(issuer, { failureThrottle: { perAddress: 2, perUser: 1000, blockSec: 120 } }) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const present = async (assertion: string, secret: string, from: string) =>
    sendFrom(server, '/oauth/token', {
      from,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...clientBasic(WIKI[0], secret) },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
    });

  it('wrong secrets count; over the budget the right secret is refused too, and the ID-JAG is not used up', async () => {
    const assertion = await assertionFor(issuer);
    expect((await present(assertion, 'wrong-1', '127.0.0.7')).status).toBe(401);
    expect((await present(assertion, 'wrong-2', '127.0.0.7')).status).toBe(401);
    const blocked = await present(assertion, 'wrong-3', '127.0.0.7');
    expectThrottled(blocked, 120);
    expect(blocked.body).toMatchObject({ error: 'temporarily_unavailable' });
    expectThrottled(await present(assertion, WIKI[1], '127.0.0.7'), 120);
    // from another address the same ID-JAG is still good: the blocked requests never reached the grant
    const elsewhere = await present(assertion, WIKI[1], '127.0.0.8');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.access_token).toEqual(expect.any(String));
  });
});

describe('an identity provider whose keys cannot be fetched', () => {
  it('is a 503 temporarily_unavailable, not a verdict on the ID-JAG', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const gone = `http://127.0.0.1:${await freePort()}/jwks`;
    const server = await startAuthServer(guardedServer([]), STATELESS, {
      webServer: { port, auth: { ...authFor(issuer), oauth: { clients: [{ clientId: WIKI[0], clientSecret: WIKI[1] }], trustedIdps: [{ issuer: IDP, jwksUrl: gone, clientIds: ['wiki'] }] } } },
    });
    try {
      const answer = await presentIdJag(server.handle.url as string, await assertionFor(issuer), WIKI);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'temporarily_unavailable', error_description: 'The identity provider keys cannot be fetched right now; try again later' });
    } finally {
      await server.stop();
    }
  });
});

describe('start-up refusals of trusted identity providers', () => {
  const auth = (a: Record<string, unknown>) => loadConfig({ cwd: '/nonexistent', env: {}, overrides: { webServer: { auth: a } } }).config.webServer.auth;
  const client = { clientId: 'wiki', clientSecret: WIKI[1] };
  const idp = (over: Record<string, unknown> = {}) => ({ issuer: IDP, jwksUrl: 'https://idp.corp.example/keys', clientIds: ['wiki'], ...over });
  const embedded = { mode: 'embedded', issuer: 'https://mcp.corp.example' };

  it.each([
    ['another JWT mode', { jwtToken: { mode: 'remoteJwks', jwksUrl: 'https://x.example/jwks', issuer: 'https://x.example', audience: 'a' } }, [idp()], false, /oauth\.trustedIdps: needs jwtToken\.mode embedded/],
    ['a JWKS over plain http off loopback', { jwtToken: embedded }, [idp({ jwksUrl: 'http://idp.corp.example/keys' })], false, /oauth\.trustedIdps\[0\]\.jwksUrl: must use https/],
    ['a loopback JWKS over http in production', { jwtToken: { ...embedded, privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() } }, [idp({ jwksUrl: 'http://127.0.0.1:8080/keys' })], true, /jwksUrl: must use https in production/],
    ['a symmetric algorithm', { jwtToken: embedded }, [idp({ algorithms: ['HS256'] })], false, /oauth\.trustedIdps\[0\]\.algorithms: "HS256" is not allowed/],
    ['a client that is not configured', { jwtToken: embedded }, [idp({ clientIds: ['nobody'] })], false, /clientIds: "nobody" is not a client of oauth\.clients/],
    ['this server as its own identity provider', { jwtToken: embedded }, [idp({ issuer: 'https://mcp.corp.example' })], false, /issuer: is this server's own issuer/],
    ['the same issuer twice', { jwtToken: embedded }, [idp(), idp()], false, /"https:\/\/idp\.corp\.example" is listed twice/],
  ])('refuses %s', async (_name, base, trustedIdps, production, message) => {
    const err = await buildSchemes(auth({ ...base, oauth: { clients: [client], trustedIdps } }), production).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthConfigError);
    expect((err as Error).message).toMatch(message);
  });

  it('the schema refuses an identity provider without clients', () => {
    expect(() => auth({ jwtToken: embedded, oauth: { clients: [client], trustedIdps: [idp({ clientIds: [] })] } })).toThrow(/trustedIdps/);
  });
});
