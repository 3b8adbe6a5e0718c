/**
 * Authentication on HTTP routes: scopes required for the whole MCP endpoint
 * (403 insufficient_scope), `createAuthMW()` on a consumer's route, and the
 * operators' token endpoint (off by default, itself protected, bounded).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthMW, getRequestAuth } from '../../src/index.js';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { basic, bearer, guardedServer, rawPost, startAuthServer, toolCall } from './helpers.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const SERVER_TOKEN = 'pst-7d3f9a1c5e2b4d6f8a0c1e3b5d7f9a2c';
const servers: TestServer[] = [];
async function start(auth: Record<string, unknown>, calls: string[] = []): Promise<TestServer> {
  const s = await startAuthServer(guardedServer(calls), STATELESS, { mcp: { responseMode: 'json' }, webServer: { auth: { enabled: true, ...auth } } });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

describe('scopes required for the whole MCP endpoint', () => {
  it('a caller without them gets 403 insufficient_scope with the scope, and nothing runs', async () => {
    const calls: string[] = [];
    const s = await start(
      { requiredScopes: ['mcp:access'], permanentServerTokens: [SERVER_TOKEN], basic: { username: 'ops', password: 'long-enough-password' } },
      calls,
    );
    const r = await rawPost(s.handle.url as string, '/mcp', toolCall('open_tool'), basic('ops', 'long-enough-password'));
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+", error="insufficient_scope", error_description="[^"]+", scope="mcp:access"$/);
    expect(calls).toEqual([]);
  });
});

describe('mcp.httpErrorStatus: a refused tool call as HTTP 403', () => {
  it('answers the JSON-RPC -32001 with status 403 when the flag is on, 200 when off', async () => {
    for (const flag of [true, false]) {
      const calls: string[] = [];
      const s = await startAuthServer(guardedServer(calls), STATELESS, {
        mcp: { responseMode: 'json', httpErrorStatus: flag },
        webServer: { auth: { enabled: true, permanentServerTokens: [SERVER_TOKEN] } },
      });
      servers.push(s);
      const r = await rawPost(s.handle.url as string, '/mcp', toolCall('scoped_tool'), bearer(SERVER_TOKEN));
      expect(r.status).toBe(flag ? 403 : 200);
      expect(r.body.error).toMatchObject({ code: -32001, data: { error: 'insufficient_scope', scope: 'reports:write' } });
      expect(calls).toEqual([]);
    }
  });
});

describe('createAuthMW on a consumer route', () => {
  it('refuses without credentials (401) or scope (403), and hands the caller to the handler', async () => {
    const s = await start({
      permanentServerTokens: [SERVER_TOKEN],
      serverTokenScopes: ['reports:read'],
      basic: { username: 'ops', password: 'long-enough-password' },
    });
    let ran = 0;
    s.handle.http!.app.get('/api/report', createAuthMW(s.handle, { requiredScopes: ['reports:read'] }), (req, res) => {
      ran++;
      res.json({ for: getRequestAuth(req)?.subject });
    });
    const url = new URL('/api/report', s.handle.url);
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'unauthorized' });
    const noScope = await fetch(url, { headers: basic('ops', 'long-enough-password') });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toContain('scope="reports:read"');
    expect(ran).toBe(0);
    const ok = await fetch(url, { headers: bearer(SERVER_TOKEN) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { for: string }).for).toMatch(/^server-token:/);
    expect(ran).toBe(1);
  });
});

describe('the operators token endpoint', () => {
  const legacy = { mode: 'legacyAesCtr', encryptKey: 'mint-endpoint-test-secret-0123456789' };

  it('is off by default', async () => {
    const s = await start({ permanentServerTokens: [SERVER_TOKEN], serverTokenScopes: ['tokens:issue'], jwtToken: legacy });
    expect((await post(s.handle.url as string, '/admin/token', { subject: 'x' }, bearer(SERVER_TOKEN))).status).toBe(404);
  });

  it('is protected, bounded, and mints tokens that work', async () => {
    const calls: string[] = [];
    const s = await start(
      {
        permanentServerTokens: [SERVER_TOKEN],
        serverTokenScopes: ['tokens:issue'],
        basic: { username: 'ops', password: 'long-enough-password' },
        jwtToken: legacy,
        mintEndpoint: { enabled: true, allowedScopes: ['reports:write'], maxTtlSec: 600 },
      },
      calls,
    );
    const base = s.handle.url as string;
    expect((await post(base, '/admin/token', { subject: 'x' })).status).toBe(401);
    const noScope = await post(base, '/admin/token', { subject: 'x' }, basic('ops', 'long-enough-password'));
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toContain('scope="tokens:issue"');
    const beyondScope = await post(base, '/admin/token', { subject: 'x', scopes: ['admin'] }, bearer(SERVER_TOKEN));
    expect(beyondScope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    const beyondTtl = await post(base, '/admin/token', { subject: 'x', ttlSec: 601 }, bearer(SERVER_TOKEN));
    expect(beyondTtl).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    for (const r of [noScope, beyondScope, beyondTtl]) expect(r.body.token).toBeUndefined();

    const minted = await post(base, '/admin/token', { subject: 'grace', scopes: ['reports:write'], ttlSec: 120 }, bearer(SERVER_TOKEN));
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ token_type: 'Bearer', expires_in: 120 });
    const used = await rawPost(base, '/mcp', toolCall('scoped_tool'), bearer(String(minted.body.token)));
    expect(used.status).toBe(200);
    expect(calls).toEqual(['scoped_tool']);
  });
});
