/**
 * Cache hints of single items and of whole lists on 2026-07-28, over the
 * per-method hints of configuration: a resource's or template's own hint is
 * what its reads carry (field by field), never listed; nothing claims more than
 * its content allows — a resource only some callers may read is never
 * `public`, and neither is a list that depends on the caller (items hidden
 * from callers who may not use them, tools or resources given as a function
 * of the request), on every page of it. 2025-era answers carry no cache
 * fields. Both 2026-07-28 request paths (http/2026 core route, http-sdk/2026).
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, initMcpServer, type ITool, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type WireClient2026 } from '../../src/testing/index.js';

type Rec = Record<string, unknown>;
const publicHints = { mcp: { cacheHints: { ttlMs: 30_000, cacheScope: 'public' }, pagination: { pageSize: 1 } } };

const data: McpServerData = {
  tools: [
    { name: 'open_tool', description: 'Anyone.', inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') },
    { name: 'admin_tool', description: 'Admins only.', inputSchema: { type: 'object' }, requiredScopes: ['admin'], handler: () => formatToolResult('ok') },
  ],
  prompts: [{ name: 'hello', content: 'hello' }],
  resources: [
    { uri: 'demo://static/doc', name: 'doc', mimeType: 'text/plain', cacheHint: { ttlMs: 3_600_000, cacheScope: 'public' }, content: 'static' },
    { uri: 'demo://dynamic/now', name: 'now', mimeType: 'text/plain', content: () => 'dynamic' },
    { uri: 'demo://restricted', name: 'restricted', mimeType: 'text/plain', requiredScopes: ['mcp'], cacheHint: { ttlMs: 60_000, cacheScope: 'public' }, content: 'members only' },
  ],
  resourceTemplates: [{ uriTemplate: 'demo://items/{id}', name: 'item', cacheHint: { ttlMs: 90_000 }, read: (_uri, v) => `item ${v.id}` }],
};

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sign = (scope: string) => new SignJWT({ scope }).setProtectedHeader({ alg: 'ES256' }).setSubject('ann').setIssuer('hints').setIssuedAt().setExpirationTime('10m').sign(privateKey);
const auth = (hideUnauthorized: boolean) => ({
  enabled: true,
  realm: 'hints',
  requiredScopes: ['mcp'],
  hideUnauthorized,
  jwtToken: { mode: 'localKey', publicKey: publicKey.export({ type: 'spki', format: 'pem' }), issuer: 'hints' },
});

/** The cache fields of a result. */
const fields = (r: Rec) => ({ ttlMs: r.ttlMs, cacheScope: r.cacheScope });

/** Every page of a list, each page's cache fields. */
async function pages(c: WireClient2026, method: string): Promise<Array<{ ttlMs: unknown; cacheScope: unknown }>> {
  const out: Array<{ ttlMs: unknown; cacheScope: unknown }> = [];
  let cursor: string | undefined;
  do {
    const page = await c.request(method, cursor ? { cursor } : {});
    out.push(fields(page));
    cursor = page.nextCursor as string | undefined;
  } while (cursor);
  return out;
}

describe.each(ALL_TARGETS.filter((t) => t.transport === 'http' && t.era === '2026'))('item and list cache hints on $label', (target) => {
  const servers: TestServer[] = [];
  let open: WireClient2026;
  let hiding: WireClient2026;
  let showing: WireClient2026;
  beforeAll(async () => {
    const token = `Bearer ${await sign('mcp')}`;
    const [plain, hide, show] = await Promise.all([
      startTestServer(data, { target, config: publicHints }),
      startTestServer(data, { target, config: { ...publicHints, webServer: { auth: auth(true) } } }),
      startTestServer(data, { target, config: { ...publicHints, webServer: { auth: auth(false) } } }),
    ]);
    servers.push(plain, hide, show);
    open = plain.wire2026();
    hiding = hide.wire2026({ headers: { authorization: token } });
    showing = show.wire2026({ headers: { authorization: token } });
  });
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it("a read carries its resource's or template's own hint; a read without one the configured hint", async () => {
    expect(fields(await open.request('resources/read', { uri: 'demo://static/doc' }))).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' });
    expect(fields(await open.request('resources/read', { uri: 'demo://dynamic/now' }))).toEqual({ ttlMs: 30_000, cacheScope: 'public' });
    expect(fields(await open.request('resources/read', { uri: 'demo://items/7' }))).toEqual({ ttlMs: 90_000, cacheScope: 'public' });
  });

  it('a read only some callers may make is private, whatever the resource and the configuration say', async () => {
    const read = await showing.request('resources/read', { uri: 'demo://restricted' });
    expect(read.contents).toEqual([{ uri: 'demo://restricted', mimeType: 'text/plain', text: 'members only' }]);
    expect(fields(read)).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
  });

  it('lists the hints nowhere', async () => {
    const resources = await open.request('resources/list', {});
    const templates = await open.request('resources/templates/list', {});
    expect(JSON.stringify([resources, templates])).not.toContain('cacheHint');
  });

  it('a list the same for every caller keeps the configured hint on every page', async () => {
    expect(await pages(open, 'tools/list')).toEqual([
      { ttlMs: 30_000, cacheScope: 'public' },
      { ttlMs: 30_000, cacheScope: 'public' },
    ]);
    // Without hiding, every caller sees every item: the same list for all.
    expect(new Set((await pages(showing, 'resources/list')).map((p) => p.cacheScope))).toEqual(new Set(['public']));
  });

  it('a list that hides what a caller may not use is private on every page; lists with nothing to hide stay public', async () => {
    const tools = await pages(hiding, 'tools/list');
    expect(tools.length).toBeGreaterThan(0);
    for (const page of tools) expect(page).toEqual({ ttlMs: 30_000, cacheScope: 'private' });
    for (const page of await pages(hiding, 'resources/list')) expect(page.cacheScope).toBe('private');
    for (const page of await pages(hiding, 'prompts/list')) expect(page).toEqual({ ttlMs: 30_000, cacheScope: 'public' });
    for (const page of await pages(hiding, 'resources/templates/list')) expect(page.cacheScope).toBe('public');
  });

  it('tools or resources given as a function of the request make their list private', async () => {
    const s = await startTestServer({ tools: () => (data.tools as ITool[]), resources: () => [{ uri: 'demo://mine', name: 'mine', content: 'mine' }] }, { target, config: publicHints });
    servers.push(s);
    for (const page of await pages(s.wire2026(), 'tools/list')) expect(page).toEqual({ ttlMs: 30_000, cacheScope: 'private' });
    for (const page of await pages(s.wire2026(), 'resources/list')) expect(page).toEqual({ ttlMs: 30_000, cacheScope: 'private' });
  });
});

describe('cache hints of items on 2025-era answers', () => {
  it('are not sent', async () => {
    const s = await startTestServer(data, { target: { transport: 'stateless', era: '2025', label: 'http-stateless/2025' }, config: publicHints });
    try {
      const client = await s.connect();
      const read = (await client.readResource({ uri: 'demo://static/doc' })) as Rec;
      expect(read.contents).toBeDefined();
      expect(read).not.toHaveProperty('ttlMs');
      expect(read).not.toHaveProperty('cacheScope');
    } finally {
      await s.stop();
    }
  });
});

describe('an invalid cacheHint', () => {
  it('stops the start naming the resource', async () => {
    const bad = { resources: [{ uri: 'demo://bad', name: 'bad', cacheHint: { ttlMs: -1 }, content: 'x' }] } as McpServerData;
    await expect(initMcpServer(bad, { config: { mcp: { transportType: 'http' }, webServer: { port: 0, host: '127.0.0.1' }, logger: { level: 'silent' } }, handleSignals: false })).rejects.toThrow(
      /demo:\/\/bad.*ttlMs/,
    );
  });
});
