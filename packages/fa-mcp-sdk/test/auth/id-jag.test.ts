/**
 * Enterprise-Managed Authorization on the embedded authorization server: POST
 * /oauth/token takes an ID-JAG (jwt-bearer grant) from an authenticated client
 * when its issuer is a trusted identity provider, checks it as the extension
 * and the ID-JAG draft require, and issues an access token restricted to this
 * MCP server carrying the mapped subject, e-mail and groups, with which
 * requiredScopes and requiredGroups work unchanged. Every attack is refused
 * with the OAuth error and a description naming the check, counted under its
 * reason and passed to the one refusal hook (seen here in the trace sink).
 * The identity providers are key pairs whose JWKS is served on loopback.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJsonFromResult } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { metricsUrl, sample, scrape } from '../ops2/helpers.js';
import { bearer, connectWith, decodePart, ecKeyPair, freePort, guardedServer, rsaKeyPair, startAuthServer, startJwksServer, tokenRequest, type JwksServer, type KeyPair } from './helpers.js';
import { EMA_EXTENSION, ID_JAG_PROFILE, JWT_BEARER, presentIdJag, signIdJag, unsignedIdJag, type IdJagInput } from './id-jag-helpers.js';

const MODERN: TestTarget = { transport: 'http', era: '2026', label: 'http/2026' };
const SESSION: TestTarget = { transport: 'http', era: '2025', label: 'http-session/2025' };
const STDIO: TestTarget = { transport: 'stdio', era: '2026', label: 'stdio/2026' };
const IDP_A = 'https://idp-a.corp.example';
const IDP_B = 'https://idp-b.corp.example';
const WIKI: [string, string] = ['wiki', 'wiki-secret-0123456789abcdefghijkl'];
const CHAT: [string, string] = ['chat', 'chat-secret-0123456789abcdefghijkl'];
const BOT: [string, string] = ['bot', 'bot-secret-0123456789abcdefghijklm'];

describe('ID-JAG grant at /oauth/token (embedded mode, trusted identity providers)', () => {
  const calls: string[] = [];
  const traceFile = join(mkdtempSync(join(tmpdir(), 'fa-mcp-idjag-')), 'trace.jsonl');
  let server: TestServer | undefined;
  let base: string;
  let issuer: string;
  let keyA: KeyPair;
  let keyB: KeyPair;
  let stranger: KeyPair;
  let jwksA: JwksServer;
  let jwksB: JwksServer;
  const defaults = () => ({ iss: IDP_A, sub: 'alice', aud: issuer, client_id: 'wiki', resource: `${issuer}/mcp`, scope: 'reports:read reports:write', email: 'alice@corp.example', groups: ['mcp-admins'] });
  const idJag = (input: Partial<IdJagInput> = {}) => signIdJag(defaults(), { key: keyA, ...input });

  const config = (port: number) => ({
    mcp: { debug: { logFile: traceFile } },
    webServer: {
      port,
      auth: {
        enabled: true,
        realm: 'id-jag-test',
        // jwksCooldownMs 0: the rotation below refetches at once (the cooldown itself: modes.test.ts, same module)
        jwtToken: { mode: 'embedded', issuer, maxTtlSec: 900, jwksCooldownMs: 0 },
        revoked: { subjects: ['mallory'] },
        oauth: {
          scopesSupported: ['reports:read', 'reports:write'],
          clients: [
            { clientId: WIKI[0], clientSecret: WIKI[1], scopes: ['reports:read', 'reports:write'], maxTtlSec: 300 },
            { clientId: CHAT[0], clientSecret: CHAT[1], scopes: ['reports:read'] },
            { clientId: BOT[0], clientSecret: BOT[1], scopes: ['reports:read'] },
          ],
          trustedIdps: [
            { issuer: IDP_A, jwksUrl: jwksA.url, algorithms: ['ES256'], clientIds: ['wiki', 'chat'] },
            { issuer: IDP_B, jwksUrl: jwksB.url, algorithms: ['RS256'], clientIds: ['wiki'], claims: { subject: 'email', groups: 'roles' } },
          ],
        },
      },
    },
  });

  beforeAll(async () => {
    [keyA, keyB, stranger] = await Promise.all([ecKeyPair('idp-a-1'), rsaKeyPair('idp-b-1'), ecKeyPair('idp-a-1')]);
    [jwksA, jwksB] = await Promise.all([startJwksServer([keyA.jwk]), startJwksServer([keyB.jwk])]);
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    server = await startAuthServer(guardedServer(calls), MODERN, config(port));
    base = server.handle.url as string;
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([jwksA?.close(), jwksB?.close()]);
  });

  it('says so in the authorization server metadata; the protected resource metadata names this authorization server', async () => {
    const as = (await (await fetch(new URL('/.well-known/oauth-authorization-server', base))).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ issuer, token_endpoint: `${issuer}/oauth/token`, grant_types_supported: ['client_credentials', JWT_BEARER], authorization_grant_profiles_supported: [ID_JAG_PROFILE] });
    // which identity providers are trusted is not disclosed
    expect(JSON.stringify(as)).not.toContain('corp.example');
    const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', base))).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${issuer}/mcp`, authorization_servers: [issuer] });
  });

  it('exchanges an ID-JAG for a token restricted to the resource, with the mapped subject, e-mail and groups; scopes and groups then work', async () => {
    const answer = await presentIdJag(base, await idJag(), WIKI);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'reports:read reports:write' });
    expect(answer.body.refresh_token).toBeUndefined();
    const token = String(answer.body.access_token);
    const claims = decodePart(token.split('.')[1] as string);
    expect(claims).toMatchObject({ iss: issuer, aud: `${issuer}/mcp`, sub: 'alice', client_id: 'wiki', email: 'alice@corp.example', groups: ['mcp-admins'], idp: IDP_A, scope: 'reports:read reports:write' });

    calls.length = 0;
    const client = await connectWith(server as TestServer, bearer(token));
    const me = getJsonFromResult(await client.callTool({ name: 'scoped_tool', arguments: {} }));
    expect(me).toMatchObject({ subject: 'alice', groups: ['mcp-admins'] });
    expect(getJsonFromResult(await client.callTool({ name: 'group_tool', arguments: {} }))).toMatchObject({ ran: 'group_tool' });
    await client.close();
    expect(calls).toEqual(['scoped_tool', 'group_tool']);
  });

  it('maps the subject and groups from the claims an identity provider is configured with', async () => {
    const assertion = await signIdJag(
      { iss: IDP_B, sub: '00u1x9', aud: issuer, client_id: 'wiki', resource: `${issuer}/mcp`, scope: 'reports:read', email: 'bob@corp.example', roles: 'mcp-admins, auditors' },
      { key: keyB },
    );
    const answer = await presentIdJag(base, assertion, WIKI);
    expect(answer.status).toBe(200);
    expect(decodePart(String(answer.body.access_token).split('.')[1] as string)).toMatchObject({ sub: 'bob@corp.example', groups: ['mcp-admins', 'auditors'], idp: IDP_B });
  });

  it('grants the scopes the ID-JAG grants and the client may get, fewer when asked for fewer or not granted', async () => {
    // chat may get reports:read only: reports:write of the ID-JAG is not granted
    const chat = await presentIdJag(base, await idJag({ claims: { client_id: 'chat' } }), CHAT);
    expect(chat.status).toBe(200);
    expect(chat.body.scope).toBe('reports:read');
    const fewer = await presentIdJag(base, await idJag(), WIKI, { scope: 'reports:read' });
    expect(fewer.body.scope).toBe('reports:read');
    // what the IdP did not grant is left out; none at all is a token without scopes (the IdP let the user reach the server)
    const notGranted = await presentIdJag(base, await idJag({ claims: { scope: 'reports:read' } }), WIKI, { scope: 'reports:write' });
    expect(notGranted.status).toBe(200);
    expect(notGranted.body.scope).toBeUndefined();
    expect(decodePart(String(notGranted.body.access_token).split('.')[1] as string).scope).toBeUndefined();
    // the resource indicator of RFC 8707, as the official client sends it
    const indicated = await presentIdJag(base, await idJag(), WIKI, { resource: `${issuer}/mcp` });
    expect(indicated.status).toBe(200);
  });

  it('a group claim grants no scope: groups are carried as groups only', async () => {
    const answer = await presentIdJag(base, await idJag({ claims: { scope: 'reports:read', groups: ['reports:write', 'mcp-admins'] } }), WIKI);
    expect(answer.body.scope).toBe('reports:read');
    const client = await connectWith(server as TestServer, bearer(String(answer.body.access_token)));
    calls.length = 0;
    await expect(client.callTool({ name: 'scoped_tool', arguments: {} })).rejects.toMatchObject({ code: -32001, message: expect.stringMatching(/reports:write/) });
    await client.close();
    expect(calls).toEqual([]);
  });

  const refusals: Array<[string, () => Promise<{ assertion: string; client?: [string, string]; extra?: Record<string, string> }>, number, string, RegExp, string]> = [
    ['signed with another key than its identity provider publishes', async () => ({ assertion: await idJag({ key: stranger }) }), 400, 'invalid_grant', /does not verify with the keys of its identity provider/, 'invalid_signature'],
    ['signed by another trusted identity provider in the name of the first', async () => ({ assertion: await idJag({ key: keyB, header: { alg: 'RS256', kid: 'idp-b-1' } }) }), 400, 'invalid_grant', /algorithm not accepted|no key/i, 'invalid_signature'],
    ['from an untrusted issuer', async () => ({ assertion: await idJag({ claims: { iss: 'https://evil.example' } }) }), 400, 'invalid_grant', /issuer is not a trusted identity provider/, 'wrong_issuer'],
    ['for another authorization server (aud)', async () => ({ assertion: await idJag({ claims: { aud: 'https://other-as.example' } }) }), 400, 'invalid_grant', /audience is not this authorization server/, 'wrong_audience'],
    ['for this and another audience', async () => ({ assertion: await idJag({ claims: { aud: [issuer, 'https://other-as.example'] } }) }), 400, 'invalid_grant', /audience must be this authorization server alone/, 'wrong_audience'],
    ['for another resource', async () => ({ assertion: await idJag({ claims: { resource: 'https://other-mcp.example/mcp' } }) }), 400, 'invalid_grant', /resource is not this MCP server/, 'wrong_resource'],
    ['asking for a resource the ID-JAG does not name', async () => ({ assertion: await idJag(), extra: { resource: 'https://other-mcp.example/mcp' } }), 400, 'invalid_target', /requested resource/, 'wrong_resource'],
    ["another client's ID-JAG", async () => ({ assertion: await idJag({ claims: { client_id: 'chat' } }) }), 400, 'invalid_grant', /issued for another client/, 'wrong_client'],
    ['for a client its identity provider may not act for', async () => ({ assertion: await idJag({ claims: { client_id: 'bot' } }), client: BOT }), 400, 'unauthorized_client', /not trusted to act for this client/, 'wrong_client'],
    ['expired', async () => ({ assertion: await idJag({ claims: { iat: Math.floor(Date.now() / 1000) - 400, exp: Math.floor(Date.now() / 1000) - 100 } }) }), 400, 'invalid_grant', /has expired/, 'expired'],
    ['issued in the future', async () => ({ assertion: await idJag({ claims: { iat: Math.floor(Date.now() / 1000) + 120, exp: Math.floor(Date.now() / 1000) + 400 } }) }), 400, 'invalid_grant', /issued in the future/, 'not_yet_valid'],
    ['living longer than the limit', async () => ({ assertion: await idJag({ claims: { exp: Math.floor(Date.now() / 1000) + 3600 } }) }), 400, 'invalid_grant', /lives longer than the 600 s/, 'malformed'],
    ['typed as another kind of JWT (an ID token)', async () => ({ assertion: await idJag({ header: { typ: 'JWT' } }) }), 400, 'invalid_grant', /typ must be oauth-id-jag\+jwt/, 'wrong_type'],
    ['unsigned (alg: none)', async () => ({ assertion: unsignedIdJag({ ...defaults(), jti: 'none-1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 }) }), 400, 'invalid_grant', /unsigned or signed with an algorithm not accepted/, 'invalid_signature'],
    ['without a jti', async () => ({ assertion: await idJag({ claims: { jti: undefined } }) }), 400, 'invalid_grant', /"jti"/, 'malformed'],
    ['bound to a key (cnf) this server cannot check', async () => ({ assertion: await idJag({ claims: { cnf: { jkt: 'abc' } } }) }), 400, 'invalid_grant', /bound to a key/, 'malformed'],
    ['without the subject claim', async () => ({ assertion: await idJag({ claims: { sub: undefined } }) }), 400, 'invalid_grant', /no "sub" claim/, 'malformed'],
    ['for a revoked subject', async () => ({ assertion: await idJag({ claims: { sub: 'mallory' } }) }), 400, 'invalid_grant', /subject has been revoked/, 'revoked'],
    ['with a request for a scope the client may not get', async () => ({ assertion: await idJag({ claims: { client_id: 'chat' } }), client: CHAT, extra: { scope: 'reports:read reports:write' } }), 400, 'invalid_scope', /Scope not allowed for this client: reports:write/, 'invalid_scope'],
    ['not a JWT at all', async () => ({ assertion: 'not-a-jwt' }), 400, 'invalid_grant', /not a JWT/, 'malformed'],
    ['from a client with a wrong secret', async () => ({ assertion: await idJag(), client: [WIKI[0], `${WIKI[1]}x`] }), 401, 'invalid_client', /Unknown client or wrong secret/, 'invalid_client'],
  ];

  it.each(refusals)('refuses an ID-JAG %s', async (_name, make, status, error, description) => {
    const { assertion, client = WIKI, extra = {} } = await make();
    calls.length = 0;
    const answer = await presentIdJag(base, assertion, client, extra);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error, error_description: expect.stringMatching(description) });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(JSON.stringify(answer.body)).not.toContain(assertion.slice(0, 20));
    expect(calls).toEqual([]);
  });

  it('uses a jti once: the same ID-JAG again is refused, and a grant refused for another check is not used up', async () => {
    const assertion = await idJag();
    // presented by another client first: refused, and still good for its own client
    expect((await presentIdJag(base, assertion, CHAT)).body).toMatchObject({ error: 'invalid_grant' });
    expect((await presentIdJag(base, assertion, WIKI)).status).toBe(200);
    const again = await presentIdJag(base, assertion, WIKI);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: 'The ID-JAG has been used already (jti)' });
  });

  it('follows a key rotation at the identity provider (an unknown kid refetches its JWKS)', async () => {
    const rotated = await ecKeyPair('idp-a-2');
    const before = jwksA.hits;
    jwksA.set([keyA.jwk, rotated.jwk]);
    const answer = await presentIdJag(base, await idJag({ key: rotated }), WIKI);
    expect(answer.status).toBe(200);
    expect(jwksA.hits).toBe(before + 1);
  });

  it('other grants and requests: client_credentials still works, no assertion is invalid_request, another grant is unsupported', async () => {
    expect((await tokenRequest(base, { grant_type: 'client_credentials', scope: 'reports:read' }, { Authorization: `Basic ${Buffer.from(WIKI.join(':')).toString('base64')}` })).status).toBe(200);
    const none = await tokenRequest(base, { grant_type: JWT_BEARER }, { Authorization: `Basic ${Buffer.from(WIKI.join(':')).toString('base64')}` });
    expect(none.body).toEqual({ error: 'invalid_request', error_description: 'The assertion parameter is required' });
    const other = await tokenRequest(base, { grant_type: 'password' }, { Authorization: `Basic ${Buffer.from(WIKI.join(':')).toString('base64')}` });
    expect(other.body).toMatchObject({ error: 'unsupported_grant_type', error_description: expect.stringContaining(JWT_BEARER) });
  });

  it('counts every refusal under its reason, and passes each to the refusal hook with its check and facts (never the assertion)', async () => {
    const metrics = await scrape(metricsUrl(base));
    for (const [reason, atLeast] of Object.entries({ wrong_issuer: 1, wrong_audience: 2, wrong_resource: 2, wrong_client: 3, expired: 1, wrong_type: 1, replayed: 1, invalid_signature: 3, invalid_scope: 1, invalid_client: 1, revoked: 1, unsupported_grant_type: 1 })) {
      expect(sample(metrics.text, 'mcp_auth_failures_total', { reason }), reason).toBeGreaterThanOrEqual(atLeast);
    }
    const replay = await idJag();
    await presentIdJag(base, replay, WIKI);
    await presentIdJag(base, replay, WIKI);
    await server?.stop(); // the trace sink is flushed on stop
    server = undefined;
    const entries = readFileSync(traceFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const refusals = entries.filter((e) => e.kind === 'auth_failure').map((e) => ({ reason: e.reason, ...(e.data as Record<string, unknown>) }));
    expect(refusals).toContainEqual({
      reason: 'replayed',
      endpoint: '/oauth/token',
      grantType: JWT_BEARER,
      error: 'invalid_grant',
      check: 'jti',
      description: 'The ID-JAG has been used already (jti)',
      issuer: IDP_A,
      subject: 'alice',
      jti: expect.any(String),
      clientId: 'wiki',
    });
    expect(refusals).toContainEqual(expect.objectContaining({ reason: 'wrong_issuer', check: 'iss', clientId: 'wiki', error: 'invalid_grant' }));
    expect(refusals).toContainEqual(expect.objectContaining({ reason: 'invalid_client', check: 'client_secret', clientId: 'wiki', error: 'invalid_client' }));
    expect(readFileSync(traceFile, 'utf8')).not.toContain(replay.split('.')[1] as string);
  });
});

describe('the extension is declared where extensions are negotiated', () => {
  let jwks: JwksServer;
  beforeAll(async () => {
    jwks = await startJwksServer([(await ecKeyPair()).jwk]);
  });
  afterAll(async () => {
    await jwks?.close();
  });

  const idpConfig = (trusted: boolean) => ({
    webServer: {
      auth: {
        enabled: false,
        jwtToken: { mode: 'embedded', issuer: 'http://127.0.0.1:1' },
        oauth: { clients: [{ clientId: 'wiki', clientSecret: WIKI[1] }], trustedIdps: trusted ? [{ issuer: IDP_A, jwksUrl: jwks.url, clientIds: ['wiki'] }] : [] },
      },
    },
  });

  it.each([SESSION, MODERN, STDIO])('capabilities.extensions on $label (initialize / server/discover), only over HTTP with trusted identity providers', async (target) => {
    for (const trusted of [true, false]) {
      const server = await startAuthServer({}, target, idpConfig(trusted));
      try {
        const client = await server.connect();
        const extensions = client.getServerCapabilities()?.extensions ?? {};
        // stdio starts with the same configuration, and has no token endpoint to take an ID-JAG at
        if (trusted && target.transport !== 'stdio') expect(extensions).toMatchObject({ [EMA_EXTENSION]: {} });
        else expect(extensions).not.toHaveProperty(EMA_EXTENSION);
      } finally {
        await server.stop();
      }
    }
  });
});
