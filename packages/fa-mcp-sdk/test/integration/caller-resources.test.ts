/**
 * Resources given as a function of the request (`McpServerData.resources: (ctx) => …`):
 * resolved per request for resources/list (paginated with the same opaque cursors) and
 * resources/read, per principal on both eras, on the core route and the SDK route, on
 * every transport; the 2025-era session is in `context.session` (2026-07-28 has none).
 * Access rules hold as for static resources: a scoped one is refused to a caller without
 * the scope (read, subscribe, listen) and left out of its lists with hideUnauthorized;
 * another principal's resource is unknown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { resourcePages } from './resource-pages.js';
import { bearer, connectWith, rsaKeyPair, signJwt, startAuthServer, type KeyPair } from '../auth/helpers.js';

const ISS = 'https://idp.example.test';
const AUD = 'mcp-caller-resources';

/** Who each call of the function was made for (subject, session id or null). */
type Asked = Array<{ subject: string | null; session: string | null; era: string }>;

function callerServer(asked: Asked): McpServerData {
  return {
    serverInfo: { name: 'caller-resources', version: '1.0.0' },
    capabilities: { subscribe: true },
    resources: (ctx) => {
      const who = ctx.auth?.subject ?? 'local';
      asked.push({ subject: ctx.auth?.subject ?? null, session: ctx.session?.id ?? null, era: ctx.era });
      return [
        { uri: `user://${who}/profile`, name: 'profile', mimeType: 'text/plain', content: `profile of ${who}` },
        { uri: `user://${who}/notes`, name: 'notes', mimeType: 'text/plain', content: (uri, c) => `notes of ${c.auth?.subject ?? 'local'} (${uri})` },
        { uri: 'team://reports', name: 'reports', mimeType: 'text/plain', requiredScopes: ['reports:read'], content: 'the reports' },
        ...(ctx.session ? [{ uri: `session://${ctx.session.id}`, name: 'this session', mimeType: 'text/plain', content: `session ${ctx.session.id}` }] : []),
      ];
    },
  };
}


const text = async (client: Client, uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;

describe.each(ALL_TARGETS.filter((t) => t.transport !== 'stdio'))('resources of a function of the caller on $label', (target) => {
  const asked: Asked = [];
  let rsa: KeyPair;
  let plain: TestServer;
  let hiding: TestServer;
  const clients: Client[] = [];
  const modern = target.era === '2026';
  const sessions = target.era === '2025' && target.transport !== 'stateless';
  const connect = async (server: TestServer, sub: string, scope: string) => {
    const token = await signJwt(rsa.privateKey, { iss: ISS, aud: AUD, sub, claims: { scope } });
    const c = await connectWith(server, bearer(token));
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    rsa = await rsaKeyPair();
    const auth = { enabled: true, jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD } };
    const mcp = { pagination: { pageSize: 2 } };
    plain = await startAuthServer(callerServer(asked), target, { webServer: { auth }, mcp });
    hiding = await startAuthServer(callerServer(asked), target, { webServer: { auth: { ...auth, hideUnauthorized: true } }, mcp });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await plain?.stop();
    await hiding?.stop();
  });

  it('lists, page after page, what the function gives this caller (and its session), each declared as changing', async () => {
    const alice = await connect(plain, 'alice', 'reports:read');
    expect(alice.getServerCapabilities()?.resources).toMatchObject({ listChanged: true, subscribe: true });
    asked.length = 0;
    const { uris, pages } = await resourcePages(alice);
    expect(pages).toBeGreaterThan(1);
    const own = ['user://alice/profile', 'user://alice/notes', 'team://reports'];
    expect(uris.filter((u) => !u.startsWith('project://') && !u.startsWith('use://') && !u.startsWith('session://'))).toEqual(own);
    expect(uris.some((u) => u.includes('bob'))).toBe(false);
    const sessionUris = uris.filter((u) => u.startsWith('session://'));
    // Asked once per page, for alice, with her session on a 2025-era session only.
    expect(asked.length).toBe(pages);
    expect(new Set(asked.map((a) => a.subject))).toEqual(new Set(['alice']));
    if (sessions) {
      const id = asked[0]?.session as string;
      expect(id).toBeTruthy();
      expect(sessionUris).toEqual([`session://${id}`]);
      expect(await text(alice, `session://${id}`)).toBe(`session ${id}`);
    } else {
      expect(sessionUris).toEqual([]);
      expect(asked.every((a) => a.session === null)).toBe(true);
    }
    expect(asked.every((a) => a.era === target.era)).toBe(true);
  });

  it('reads the caller\'s own resources; another principal\'s are unknown', async () => {
    const alice = await connect(plain, 'alice', 'reports:read');
    const bob = await connect(plain, 'bob', '');
    expect(await text(alice, 'user://alice/profile')).toBe('profile of alice');
    expect(await text(alice, 'user://alice/notes')).toBe('notes of alice (user://alice/notes)');
    expect(await text(bob, 'user://bob/profile')).toBe('profile of bob');
    await expect(bob.readResource({ uri: 'user://alice/profile' })).rejects.toMatchObject({ code: -32602, data: { uri: 'user://alice/profile' } });
  });

  it('keeps the access rules of a resource the function gives: read refused, hidden with hideUnauthorized', async () => {
    const bob = await connect(plain, 'bob', '');
    await expect(bob.readResource({ uri: 'team://reports' })).rejects.toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN });
    expect((await resourcePages(bob)).uris).toContain('team://reports');
    const hiddenBob = await connect(hiding, 'bob', '');
    expect((await resourcePages(hiddenBob)).uris).not.toContain('team://reports');
    const hiddenAlice = await connect(hiding, 'alice', 'reports:read');
    expect((await resourcePages(hiddenAlice)).uris).toContain('team://reports');
    expect(await text(hiddenAlice, 'team://reports')).toBe('the reports');
    // A subscription (2025) or a listen filter (2026-07-28) naming it is refused too.
    if (modern) await expect(bob.listen({ resourceSubscriptions: ['team://reports'] })).rejects.toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN });
    else if (target.transport !== 'stateless') await expect(bob.subscribeResource({ uri: 'team://reports' })).rejects.toMatchObject({ code: MCP_ERROR_CODES.FORBIDDEN });
  });
});

describe.each(ALL_TARGETS.filter((t) => t.transport === 'stdio'))('resources of a function of the caller on $label', (target) => {
  const asked: Asked = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(callerServer(asked), { target, config: { mcp: { pagination: { pageSize: 2 } } } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists and reads them for the local user, with the stdio connection as the 2025-era session', async () => {
    const client = await server.connect();
    const { uris } = await resourcePages(client);
    expect(uris).toEqual(expect.arrayContaining(['user://local/profile', 'user://local/notes', 'team://reports']));
    expect(await text(client, 'user://local/profile')).toBe('profile of local');
    // The trusted local user passes every check on stdio.
    expect(await text(client, 'team://reports')).toBe('the reports');
    const sessionUris = uris.filter((u) => u.startsWith('session://'));
    if (target.era === '2025') {
      expect(sessionUris).toHaveLength(1);
      expect(await text(client, sessionUris[0] as string)).toMatch(/^session /);
    } else {
      expect(sessionUris).toEqual([]);
    }
  });
});
