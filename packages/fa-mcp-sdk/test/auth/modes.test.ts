/**
 * The success paths of every scheme, through the official client: the four
 * JWT modes (with a JWKS key rotation served from a loopback server), Basic,
 * permanent server tokens, a consumer's validator and its revocation hook.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getJsonFromResult, MCP_ERROR_CODES, type CustomAuthValidator } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import {
  basic,
  bearer,
  connectWith,
  ecKeyPair,
  guardedServer,
  rawPost,
  rsaKeyPair,
  signJwt,
  startAuthServer,
  startJwksServer,
  toolCall,
  type JwksServer,
  type KeyPair,
} from './helpers.js';

const MODERN: TestTarget = { transport: 'http', era: '2026', label: 'http/2026' };
const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const ISS = 'https://issuer.example.test';
const AUD = 'mcp-modes';

const servers: TestServer[] = [];
async function start(config: Record<string, unknown>, target = MODERN, data = guardedServer([])): Promise<TestServer> {
  const s = await startAuthServer(data, target, { mcp: { responseMode: 'json' }, ...config });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function whoAmI(server: TestServer, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const client = await connectWith(server, headers);
  try {
    return getJsonFromResult(await client.callTool({ name: 'open_tool', arguments: {} })) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

describe('JWT modes', () => {
  it('embedded: the server mints with its own key, verifies, and publishes the public key', async () => {
    const s = await start({ webServer: { auth: { enabled: true, jwtToken: { mode: 'embedded', issuer: ISS } } } });
    const minted = await s.handle.auth.minter!.mint({ subject: 'svc-a', scopes: ['reports:write'], ttlSec: 120 });
    expect(await whoAmI(s, bearer(minted.token))).toMatchObject({ subject: 'svc-a', scopes: ['reports:write'] });
    const jwks = (await (await fetch(new URL('/.well-known/jwks.json', s.handle.url))).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d'); // never the private part
  });

  it('embedded with a configured RSA key: tokens survive a restart of the server', async () => {
    const rsa = await rsaKeyPair();
    const config = { webServer: { auth: { enabled: true, jwtToken: { mode: 'embedded', issuer: ISS, privateKey: rsa.privatePem } } } };
    const first = await start(config);
    const minted = await first.handle.auth.minter!.mint({ subject: 'svc-b', ttlSec: 120 });
    await first.stop();
    const second = await start(config);
    expect(await whoAmI(second, bearer(minted.token))).toMatchObject({ subject: 'svc-b' });
  });

  it('localKey: an EC key given as a JWK', async () => {
    const ec = await ecKeyPair();
    const s = await start({ webServer: { auth: { enabled: true, jwtToken: { mode: 'localKey', publicKey: JSON.stringify(ec.jwk), issuer: ISS, audience: AUD } } } });
    const token = await signJwt(ec.privateKey, { alg: 'ES256', iss: ISS, aud: AUD, sub: 'carol', claims: { scp: ['a', 'b'] } });
    expect(await whoAmI(s, bearer(token))).toMatchObject({ subject: 'carol', scopes: ['a', 'b'] });
  });

  it('legacyAesCtr: tokens minted by the server, and untagged tokens of older deployments when allowed', async () => {
    const secret = 'legacy-shared-secret-for-the-modes-test';
    const s = await start({ webServer: { auth: { enabled: true, jwtToken: { mode: 'legacyAesCtr', encryptKey: secret, legacyAcceptUnsigned: true } } } });
    const minted = await s.handle.auth.minter!.mint({ subject: 'dave', scopes: ['x'], ttlSec: 60 });
    expect(await whoAmI(s, bearer(minted.token))).toMatchObject({ subject: 'dave', scopes: ['x'] });
    // An old-format token: <expireMs>.<hex(iv ‖ AES-256-CTR(JSON))>, key = first 32 chars of base64 SHA-256 of the secret.
    const expire = Date.now() + 60_000;
    const key = Buffer.from(createHash('sha256').update(secret).digest('base64').slice(0, 32));
    const iv = randomBytes(16);
    const c = createCipheriv('aes-256-ctr', key, iv);
    const old = `${expire}.${Buffer.concat([iv, c.update(JSON.stringify({ user: 'erin', expire })), c.final()]).toString('hex')}`;
    expect(await whoAmI(s, bearer(old))).toMatchObject({ subject: 'erin' });
  });

  describe('remoteJwks', () => {
    let a: KeyPair;
    let b: KeyPair;
    let jwks: JwksServer;
    beforeAll(async () => {
      a = await rsaKeyPair('key-a');
      b = await rsaKeyPair('key-b');
      jwks = await startJwksServer([a.jwk]);
    });
    afterAll(async () => {
      await jwks?.close();
    });
    const remote = (cooldownMs: number, url = jwks.url) => ({
      webServer: { auth: { enabled: true, jwtToken: { mode: 'remoteJwks', jwksUrl: url, issuer: ISS, audience: AUD, jwksCooldownMs: cooldownMs } } },
    });

    it('verifies against the issuer JWKS, and follows a key rotation', async () => {
      jwks.set([a.jwk]);
      const s = await start(remote(0), STATELESS);
      const base = s.handle.url as string;
      const tokenA = await signJwt(a.privateKey, { kid: 'key-a', iss: ISS, aud: AUD, sub: 'frank' });
      expect((await rawPost(base, '/mcp', toolCall('open_tool'), bearer(tokenA))).status).toBe(200);
      expect((await rawPost(base, '/mcp', toolCall('open_tool'), bearer(tokenA))).status).toBe(200);
      const hitsBefore = jwks.hits;
      expect(hitsBefore).toBe(1); // cached, not fetched per request

      jwks.set([b.jwk]); // the issuer rotates to key-b and drops key-a
      const tokenB = await signJwt(b.privateKey, { kid: 'key-b', iss: ISS, aud: AUD, sub: 'frank' });
      const afterRotation = await rawPost(base, '/mcp', toolCall('open_tool'), bearer(tokenB));
      expect(afterRotation.status).toBe(200);
      expect(jwks.hits).toBe(hitsBefore + 1); // the unknown kid triggered one refetch
      const retired = await rawPost(base, '/mcp', toolCall('open_tool'), bearer(await signJwt(a.privateKey, { kid: 'key-a', iss: ISS, aud: AUD })));
      expect(retired.status).toBe(401);
      expect(retired.headers.get('www-authenticate')).toContain('No key of the issuer matches the token');
    });

    it('an unknown kid inside the cooldown does not refetch (no JWKS hammering)', async () => {
      jwks.set([a.jwk]);
      const s = await start(remote(60_000), STATELESS);
      const base = s.handle.url as string;
      expect((await rawPost(base, '/mcp', toolCall('open_tool'), bearer(await signJwt(a.privateKey, { kid: 'key-a', iss: ISS, aud: AUD })))).status).toBe(200);
      const hits = jwks.hits;
      for (let i = 0; i < 5; i++) {
        const forged = await signJwt(b.privateKey, { kid: `forged-${i}`, iss: ISS, aud: AUD });
        expect((await rawPost(base, '/mcp', toolCall('open_tool'), bearer(forged))).status).toBe(401);
      }
      expect(jwks.hits).toBe(hits);
    });

    it('an unreachable JWKS is 503, not a verdict on the caller', async () => {
      const gone = await startJwksServer([]);
      const url = gone.url;
      await gone.close();
      const s = await start(
        { webServer: { auth: { enabled: true, jwtToken: { mode: 'remoteJwks', jwksUrl: url, issuer: ISS, audience: AUD, jwksTimeoutMs: 500 } } } },
        STATELESS,
      );
      const r = await rawPost(s.handle.url as string, '/mcp', toolCall('open_tool'), bearer(await signJwt(a.privateKey, { kid: 'key-a', iss: ISS, aud: AUD })));
      expect(r.status).toBe(503);
      expect(r.body.error).toMatchObject({ code: MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE });
    });
  });
});

describe('other schemes', () => {
  it('Basic: a password containing colons', async () => {
    const s = await start({ webServer: { auth: { enabled: true, basic: { username: 'ops', password: 'a:b:c:d-long-enough', scopes: ['s1'], groups: ['g1'] } } } });
    expect(await whoAmI(s, basic('ops', 'a:b:c:d-long-enough'))).toMatchObject({ subject: 'ops', scopes: ['s1'], groups: ['g1'] });
  });

  it('permanent server tokens carry the configured scopes and never the token itself', async () => {
    const token = 'pst-4b1e9c2d7f3a5e6b8c0d1f2a3b4c5d6e';
    const s = await start({ webServer: { auth: { enabled: true, permanentServerTokens: ['another-token-0123456789abcdefghij', token], serverTokenScopes: ['ops'] } } });
    const me = await whoAmI(s, bearer(token));
    expect(me).toMatchObject({ scopes: ['ops'] });
    expect(String(me.subject)).toMatch(/^server-token:[0-9a-f]{12}$/);
    expect(JSON.stringify(me)).not.toContain(token);
  });

  it('customAuthValidator: the consumer decides, and isAuthRevoked can still refuse', async () => {
    const validator: CustomAuthValidator = (req) => {
      const key = req.headers['x-api-key'];
      return key === 'k-alice' ? { subject: 'alice', scopes: ['reports:write'], groups: [], claims: { via: 'api-key' } } : undefined;
    };
    const data = { ...guardedServer([]), customAuthValidator: validator, isAuthRevoked: (auth: { subject: string }) => auth.subject === 'alice-revoked' };
    const s = await start({ webServer: { auth: { enabled: true } } }, MODERN, data);
    expect(await whoAmI(s, { 'X-Api-Key': 'k-alice' })).toMatchObject({ subject: 'alice', scopes: ['reports:write'] });
    const refused = await rawPost(s.handle.url as string, '/mcp', toolCall('open_tool'), { 'X-Api-Key': 'nope' });
    expect(refused.status).toBe(401);

    const revoking = await start({ webServer: { auth: { enabled: true } } }, STATELESS, {
      ...guardedServer([]),
      customAuthValidator: () => ({ subject: 'alice-revoked', scopes: [], groups: [], claims: {} }),
      isAuthRevoked: (auth) => auth.subject === 'alice-revoked',
    });
    const r = await rawPost(revoking.handle.url as string, '/mcp', toolCall('open_tool'));
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('revoked');
  });

  it('a token in the query string when tokenCheck.allowQueryToken is on', async () => {
    const token = 'pst-8e6c4a2e0c8a6e4c2a0e8c6a4e2c0a8e';
    const s = await start({ webServer: { tokenCheck: { allowQueryToken: true }, auth: { enabled: true, permanentServerTokens: [token] } } }, STATELESS);
    const base = s.handle.url as string;
    expect((await rawPost(base, `/mcp?access_token=${token}`, toolCall('open_tool'))).status).toBe(200);
    expect((await rawPost(base, `/mcp?token=${token}`, toolCall('open_tool'))).status).toBe(200);
    expect((await rawPost(base, `/mcp?access_token=${token}x`, toolCall('open_tool'))).status).toBe(401);
  });

  it('with authentication off, nothing is asked and the built-in use://auth says so', async () => {
    const s = await start({}, MODERN);
    const client = await connectWith(s, {});
    const res = await client.readResource({ uri: 'use://auth' });
    expect(JSON.parse((res.contents[0] as { text: string }).text)).toMatchObject({ required: false });
    await client.close();
  });
});
