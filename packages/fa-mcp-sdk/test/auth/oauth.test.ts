/**
 * The OAuth surface of the embedded mode: discovery documents (RFC 9728, RFC
 * 8414), the JWKS, and POST /oauth/token with the client-credentials grant;
 * then the official client's ClientCredentialsProvider going through all of
 * it from a bare 401.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getJsonFromResult } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { bearer, clientBasic, decodePart, freePort, guardedServer, rawPost, startAuthServer, tokenRequest, toolCall } from './helpers.js';

const MODERN: TestTarget = { transport: 'http', era: '2026', label: 'http/2026' };
const SECRET_A = 'client-a-secret-0123456789abcdefghijkl';

describe('OAuth in embedded mode', () => {
  const calls: string[] = [];
  let server: TestServer;
  let base: string;
  let issuer: string;

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    server = await startAuthServer(guardedServer(calls), MODERN, {
      webServer: {
        port,
        auth: {
          enabled: true,
          realm: 'oauth-test',
          jwtToken: { mode: 'embedded', issuer, maxTtlSec: 600 },
          oauth: {
            clients: [
              { clientId: 'client-a', clientSecret: SECRET_A, scopes: ['reports:read', 'reports:write'], maxTtlSec: 300 },
              { clientId: 'client-b', clientSecret: 'client-b-secret-0123456789abcdefghijkl', scopes: [] },
            ],
            scopesSupported: ['reports:read', 'reports:write'],
          },
        },
      },
    });
    base = server.handle.url as string;
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    calls.length = 0;
  });

  it('serves protected resource metadata, authorization server metadata and the JWKS', async () => {
    const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource', base))).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${issuer}/`, authorization_servers: [issuer], bearer_methods_supported: ['header'], scopes_supported: ['reports:read', 'reports:write'] });
    const pathAware = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', base))).json()) as Record<string, unknown>;
    expect(pathAware.resource).toBe(`${issuer}/mcp`);
    const as = (await (await fetch(new URL('/.well-known/oauth-authorization-server', base))).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ issuer, token_endpoint: `${issuer}/oauth/token`, jwks_uri: `${issuer}/.well-known/jwks.json`, grant_types_supported: ['client_credentials'] });
    const jwks = (await (await fetch(new URL('/.well-known/jwks.json', base))).json()) as { keys: unknown[] };
    expect(jwks.keys).toHaveLength(1);
  });

  it('takes the issuer from configuration, never from the Host header', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(new URL(path, base), { headers: { Host: 'evil.example' } });
      const text = await res.text();
      expect(text).not.toContain('evil.example');
    }
    const r = await rawPost(base, '/mcp', toolCall('open_tool'), {});
    expect(r.headers.get('www-authenticate')).toContain(`resource_metadata="${issuer}/.well-known/oauth-protected-resource"`);
  });

  it('issues a token with the allowed scopes and a capped lifetime, which then works', async () => {
    const r = await tokenRequest(base, { grant_type: 'client_credentials', scope: 'reports:read' }, clientBasic('client-a', SECRET_A));
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'reports:read' });
    const claims = decodePart(String(r.body.access_token).split('.')[1] as string);
    expect(claims).toMatchObject({ iss: issuer, aud: issuer, sub: 'client-a', client_id: 'client-a', scope: 'reports:read' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(300);
    const call = await rawPost(base, '/mcp', toolCall('open_tool'), { ...bearer(String(r.body.access_token)), 'mcp-protocol-version': '2026-07-28' });
    expect(call.status).not.toBe(401);
    // client_secret_post works too
    const post = await tokenRequest(base, { grant_type: 'client_credentials', client_id: 'client-a', client_secret: SECRET_A, ttl: '60' });
    expect(post.body).toMatchObject({ expires_in: 60, scope: 'reports:read reports:write' });
  });

  it('refuses scopes beyond the client allowance, a longer lifetime, an unknown client and a wrong secret', async () => {
    const beyond = await tokenRequest(base, { grant_type: 'client_credentials', scope: 'reports:read admin' }, clientBasic('client-a', SECRET_A));
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ error: 'invalid_scope' });
    const longer = await tokenRequest(base, { grant_type: 'client_credentials', ttl: '301' }, clientBasic('client-a', SECRET_A));
    expect(longer.status).toBe(400);
    expect(longer.body).toMatchObject({ error: 'invalid_request' });
    const unknown = await tokenRequest(base, { grant_type: 'client_credentials' }, clientBasic('client-x', SECRET_A));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'invalid_client' });
    expect(unknown.headers.get('www-authenticate')).toContain('Basic realm="oauth-test"');
    const wrong = await tokenRequest(base, { grant_type: 'client_credentials' }, clientBasic('client-a', `${SECRET_A.slice(0, -1)}x`));
    expect(wrong.status).toBe(401);
    const none = await tokenRequest(base, { grant_type: 'client_credentials' });
    expect(none.status).toBe(401);
    const grant = await tokenRequest(base, { grant_type: 'password', username: 'a', password: 'b' }, clientBasic('client-a', SECRET_A));
    expect(grant.body).toMatchObject({ error: 'unsupported_grant_type' });
    for (const r of [beyond, longer, unknown, wrong, none, grant]) expect(r.body.access_token).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('the official client gets a token by itself from the 401 (ClientCredentialsProvider)', async () => {
    const provider = new ClientCredentialsProvider({ clientId: 'client-a', clientSecret: SECRET_A, scope: 'reports:write', expectedIssuer: issuer });
    const client = new Client({ name: 'cc-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(base), { authProvider: provider }));
    const me = getJsonFromResult(await client.callTool({ name: 'scoped_tool', arguments: {} }));
    // The client asks for the scopes the metadata advertises; the server grants what client-a is allowed.
    expect(me).toMatchObject({ subject: 'client-a' });
    expect((me as { scopes: string[] }).scopes).toContain('reports:write');
    await client.close();
  });
});
