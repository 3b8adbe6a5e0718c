/**
 * The small modules of src/auth alone: credential parsing, start-up refusals of
 * unsafe configurations, the access decision, LDAP filter escaping, the cache,
 * the challenge and the `use://auth` description.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { decideAccess } from '../../src/core/access-check.js';
import { AuthError } from '../../src/core/auth-error.js';
import { buildSchemes, AuthConfigError } from '../../src/auth/build-schemes.js';
import { bearerChallenge } from '../../src/auth/challenge.js';
import { safeEqual, safeIndexOf } from '../../src/auth/constant-time.js';
import { extractCredentials } from '../../src/auth/credentials.js';
import { describeAuth } from '../../src/auth/describe-auth.js';
import { escapeFilterValue, groupNameFromDn } from '../../src/auth/ldap-groups.js';
import { parseTtl } from '../../src/auth/token-minter.js';
import { TtlCache } from '../../src/auth/ttl-cache.js';
import { weakSecretReason } from '../../src/auth/static-tokens.js';
import { rsaKeyPair } from './helpers.js';

const authConfig = (auth: Record<string, unknown>) => loadConfig({ cwd: '/nonexistent', env: {}, overrides: { webServer: { auth } } }).config.webServer.auth;

describe('credentials', () => {
  const h = (authorization: string) => ({ headers: { authorization } });
  it('reads Bearer and Basic (a password keeps every colon after the first)', () => {
    expect(extractCredentials(h('Bearer abc.def'), false)).toEqual({ scheme: 'bearer', token: 'abc.def', from: 'header' });
    expect(extractCredentials(h('bearer   abc')!, false)).toMatchObject({ token: 'abc' });
    const b64 = Buffer.from('user:pa:ss:word').toString('base64');
    expect(extractCredentials(h(`Basic ${b64}`), false)).toEqual({ scheme: 'basic', username: 'user', password: 'pa:ss:word' });
  });
  it('refuses malformed values and unknown schemes', () => {
    expect(() => extractCredentials(h('Bearer two words'), false)).toThrow(AuthError);
    expect(() => extractCredentials(h(`Basic ${Buffer.from('nocolon').toString('base64')}`), false)).toThrow(/Malformed Basic/);
    expect(() => extractCredentials(h('Digest x'), false)).toThrow(/Unsupported authorization scheme/);
  });
  it('a query token only when allowed; repeated parameters are refused', () => {
    expect(() => extractCredentials({ headers: {}, query: { access_token: 't' } }, false)).toThrow(/query string is not accepted/);
    expect(extractCredentials({ headers: {}, query: { access_token: 't' } }, true)).toEqual({ scheme: 'bearer', token: 't', from: 'query' });
    expect(() => extractCredentials({ headers: {}, query: { token: ['a', 'b'] } }, true)).toThrow(/must appear once/);
    expect(extractCredentials({ headers: {} }, false)).toBeUndefined();
  });
});

describe('constant-time comparisons', () => {
  it('compare by digest, whatever the lengths, and always look at every candidate', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeIndexOf('b', ['a', 'b', 'b'])).toBe(1);
    expect(safeIndexOf('z', ['a', 'b'])).toBe(-1);
  });
});

describe('start-up refusals', () => {
  it('in production: short or sample server tokens, weak Basic passwords, an embedded key that dies with the process', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ permanentServerTokens: ['short'] }, /permanentServerTokens\[0\]: shorter than 32/],
      [{ permanentServerTokens: ['changeme-changeme-changeme-changeme-1'] }, /looks like a sample/],
      [{ permanentServerTokens: ['a'.repeat(40)] }, /sample|distinct/],
      [{ basic: { username: 'ops', password: 'password123' } }, /basic\.password/],
      [{ jwtToken: { mode: 'legacyAesCtr', encryptKey: '11111111-7777-8888-9999-000000000000' } }, /encryptKey/],
      [{ jwtToken: { mode: 'embedded', issuer: 'https://x.example' } }, /privateKey: required in production/],
    ];
    for (const [auth, message] of cases) {
      const err = await buildSchemes(authConfig(auth), true).catch((e: unknown) => e);
      expect(err, JSON.stringify(auth)).toBeInstanceOf(AuthConfigError);
      expect(String((err as Error).message)).toMatch(message);
    }
    // the same outside production starts, with warnings
    const dev = await buildSchemes(authConfig({ permanentServerTokens: ['short'] }), false);
    expect(dev.warnings.join()).toMatch(/refuse it in production/);
  });

  it('always: remoteJwks without issuer or audience, none/HS* algorithms, a symmetric key, http JWKS in production', async () => {
    const rsa = await rsaKeyPair();
    const cases: Array<[Record<string, unknown>, RegExp, boolean]> = [
      [{ jwtToken: { mode: 'remoteJwks', jwksUrl: 'https://idp.example/jwks', issuer: 'https://idp.example' } }, /audience: required/, false],
      [{ jwtToken: { mode: 'remoteJwks', jwksUrl: 'https://idp.example/jwks', audience: 'a' } }, /issuer: required/, false],
      [{ jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, algorithms: ['HS256'] } }, /"HS256" is not allowed/, false],
      [{ jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, algorithms: ['none'] } }, /"none" is not allowed/, false],
      [{ jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, algorithms: ['ES256'] } }, /does not fit/, false],
      [{ jwtToken: { mode: 'localKey', publicKey: JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }) } }, /symmetric/, false],
      [{ jwtToken: { mode: 'embedded' } }, /issuer: required in embedded mode/, false],
      [{ jwtToken: { mode: 'remoteJwks', jwksUrl: 'http://idp.example/jwks', issuer: 'i', audience: 'a' } }, /must use https/, true],
      [{ mintEndpoint: { enabled: true, requiredScopes: [] }, jwtToken: { mode: 'legacyAesCtr', encryptKey: 'k'.repeat(20) } }, /must be protected/, false],
    ];
    for (const [auth, message, production] of cases) {
      await expect(buildSchemes(authConfig(auth), production), JSON.stringify(auth)).rejects.toThrow(message);
    }
  });
});

describe('remoteJwks: where the keys may come from', () => {
  const remote = (jwksUrl: string) => authConfig({ jwtToken: { mode: 'remoteJwks', jwksUrl, issuer: 'https://idp.example', audience: 'a' } });
  it('https everywhere; http only on loopback outside production; the refusal names webServer.auth.jwtToken.jwksUrl', async () => {
    const cases: Array<[string, boolean, RegExp | undefined]> = [
      ['https://idp.example/jwks', true, undefined],
      ['https://idp.example/jwks', false, undefined],
      ['http://127.0.0.1:8080/jwks', false, undefined],
      ['http://127.0.0.2:8080/jwks', false, undefined],
      ['http://localhost:8080/jwks', false, undefined],
      ['http://[::1]:8080/jwks', false, undefined],
      ['http://idp.example/jwks', false, /webServer\.auth\.jwtToken\.jwksUrl: must use https; http is allowed only on loopback .*got http:\/\/idp\.example/],
      ['http://10.1.2.3/jwks', false, /jwtToken\.jwksUrl: must use https; http is allowed only on loopback/],
      ['http://127.0.0.1.evil.example/jwks', false, /jwtToken\.jwksUrl: must use https/],
      ['http://127.0.0.1:8080/jwks', true, /webServer\.auth\.jwtToken\.jwksUrl: must use https in production \(got http:\/\/127\.0\.0\.1:8080\)/],
      ['http://localhost/jwks', true, /jwtToken\.jwksUrl: must use https in production/],
      ['ftp://idp.example/jwks', false, /jwtToken\.jwksUrl: must use https/],
      ['not a url', false, /jwtToken\.jwksUrl: not a URL/],
    ];
    for (const [url, production, refusal] of cases) {
      const outcome = buildSchemes(remote(url), production);
      if (refusal) await expect(outcome, `${url} production=${production}`).rejects.toThrow(refusal);
      else expect((await outcome).verifiers.map((v) => v.name), `${url} production=${production}`).toEqual(['jwtToken:remoteJwks']);
    }
  });
});

describe('access decision', () => {
  const alice = { subject: 'alice', scopes: ['a', 'b'], groups: ['Admins'], claims: {} };
  it('needs every scope and one of the groups (groups compare case-insensitively)', () => {
    expect(decideAccess({ requiredScopes: ['a', 'b'] }, { auth: alice, transport: 'http' }).allowed).toBe(true);
    expect(decideAccess({ requiredScopes: ['a', 'c'] }, { auth: alice, transport: 'http' })).toMatchObject({ allowed: false, missingScopes: ['c'] });
    expect(decideAccess({ requiredGroups: ['x', 'admins'] }, { auth: alice, transport: 'http' }).allowed).toBe(true);
    expect(decideAccess({ requiredGroups: ['x'] }, { auth: alice, transport: 'http' })).toMatchObject({ allowed: false, reason: 'not_in_group' });
  });
  it('an anonymous HTTP caller gets nothing protected; stdio without a token is the trusted local user', () => {
    expect(decideAccess({ requiredScopes: ['a'] }, { transport: 'http' })).toMatchObject({ allowed: false, reason: 'unauthenticated' });
    expect(decideAccess({ requiredScopes: ['a'] }, { transport: 'stdio' }).allowed).toBe(true);
    expect(decideAccess({}, { transport: 'http' }).allowed).toBe(true);
  });
});

describe('helpers', () => {
  it('escapes LDAP filter values and reads group names from DNs', () => {
    expect(escapeFilterValue('a*)(uid=*')).toBe('a\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('back\\slash\0')).toBe('back\\5cslash\\00');
    expect(groupNameFromDn('CN=MCP Users,OU=Groups,DC=corp,DC=example')).toBe('MCP Users');
    expect(groupNameFromDn('cn=Smith\\, John,ou=x')).toBe('Smith, John');
  });
  it('the TTL cache shares one lookup in flight, expires, and does not keep failures', async () => {
    let now = 0;
    const cache = new TtlCache<number>(1000, 10, () => now);
    const load = vi.fn(async () => 42);
    await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    now = 1001;
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    await expect(cache.get('bad', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', async () => 7)).toBe(7);
  });
  it('parses lifetimes and judges secrets', () => {
    expect(parseTtl('90')).toBe(90);
    expect(parseTtl('15m')).toBe(900);
    expect(parseTtl('2d')).toBe(172_800);
    expect(() => parseTtl('soon')).toThrow(/Invalid lifetime/);
    expect(weakSecretReason('Xk3-9vQ2_LpR7-tZ1mW8-bN4cY6-hJ0sD5')).toBeUndefined();
    expect(weakSecretReason('secret-0123456789-0123456789-01234')).toMatch(/sample/);
  });
  it('quotes challenge parameters', () => {
    const err = new AuthError('invalid_token', 'bad "quote" \\ here');
    expect(bearerChallenge(err, { realm: 'r"x', basic: false })).toBe('Bearer realm="r\\"x", error="invalid_token", error_description="bad \\"quote\\" \\\\ here"');
  });
  it('use://auth describes the schemes without a secret', () => {
    const auth = authConfig({
      enabled: true,
      permanentServerTokens: ['tok-secret-value-0123456789abcdef'],
      basic: { username: 'ops', password: 'basic-secret-pass' },
      jwtToken: { mode: 'embedded', issuer: 'https://mcp.example', privateKey: 'PRIVATE KEY MATERIAL' },
      oauth: { clients: [{ clientId: 'c', clientSecret: 'client-secret-value' }] },
    });
    const text = JSON.stringify(describeAuth(auth, { allowQueryToken: false }, { realm: 'r', custom: false, transport: 'http' }));
    for (const secret of ['tok-secret-value', 'basic-secret-pass', 'PRIVATE KEY', 'client-secret-value']) expect(text).not.toContain(secret);
    expect(text).toContain('"mode":"embedded"');
    expect(text).toContain('/oauth/token');
  });
});
