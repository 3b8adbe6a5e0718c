/**
 * What is hidden stays hidden in the OpenAPI document and its page. With authentication on and
 * `webServer.auth.hideUnauthorized`, `/openapi.json`, `/openapi.yaml` (and the page's source)
 * name only the tools and routes the caller may list: the anonymous caller (no credentials)
 * sees neither the scoped tool, its schemas, nor the scoped route; a caller with the scope sees
 * them, exactly as its tools/list does. `webServer.openapi.access: authenticated` answers 401
 * without the credentials /mcp accepts, for the document and for the page.
 */
import { load as parseYaml } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { initMcpServer, type ITool, type McpServerHandle } from '../../src/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { restServer } from './rest-fixture.js';

const ADMIN_TOKEN = 'openapi-admin-token-0123456789abcdefghij';
const BASIC = `Basic ${Buffer.from('reader:reader-pw-123').toString('base64')}`;
const ADMIN = `Bearer ${ADMIN_TOKEN}`;

const handles: McpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
});

async function start(access?: 'listed' | 'authenticated', hideUnauthorized = true): Promise<{ base: string; mcp: string }> {
  const data = restServer();
  const purge: ITool = {
    name: 'purge_cache',
    description: 'Admins only.',
    requiredScopes: ['admin'],
    inputSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
    handler: () => ({ content: [{ type: 'text', text: 'purged' }] }),
  };
  data.tools = [...(data.tools as ITool[]), purge];
  const handle = await initMcpServer(data, {
    handleSignals: false,
    config: {
      logger: { level: 'silent' },
      webServer: {
        port: 0,
        rest: { exposeTools: true },
        ...(access ? { openapi: { access } } : {}),
        auth: {
          enabled: true,
          hideUnauthorized,
          permanentServerTokens: [ADMIN_TOKEN],
          serverTokenScopes: ['admin'],
          basic: { username: 'reader', password: 'reader-pw-123' },
        },
      },
    },
  });
  handles.push(handle);
  return { base: new URL('/', handle.url!).toString().replace(/\/$/, ''), mcp: handle.url! };
}

async function get(url: string, authorization?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, authorization ? { headers: { authorization } } : {});
  return { status: res.status, text: await res.text(), headers: res.headers };
}

interface Doc {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

async function documentFor(base: string, authorization?: string): Promise<Doc> {
  const json = await get(`${base}/openapi.json`, authorization);
  expect(json.status).toBe(200);
  const yaml = await get(`${base}/openapi.yaml`, authorization);
  expect(yaml.status).toBe(200);
  const doc = JSON.parse(json.text) as Doc;
  expect(parseYaml(yaml.text)).toEqual(doc);
  return doc;
}

async function listedTools(mcp: string, authorization: string): Promise<string[]> {
  const client = await connectHttp(mcp, { headers: { authorization } });
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

const toolPaths = (doc: Doc) => Object.keys(doc.paths).filter((p) => p.startsWith('/tools/')).map((p) => p.slice('/tools/'.length)).sort();

describe('webServer.openapi.access: listed (the default)', () => {
  it('the anonymous caller sees no hidden tool, schema or scoped route; a caller with the scope sees them, as in its tools/list', async () => {
    const { base, mcp } = await start();
    const anonymous = await documentFor(base);
    expect(toolPaths(anonymous)).toEqual(['add_numbers']);
    const headers = (await get(`${base}/openapi.json`)).headers;
    expect(headers.get('cache-control')).toBe('private, no-store');
    expect(headers.get('vary')).toMatch(/Authorization/i);
    expect(Object.keys(anonymous.paths)).not.toContain('/admin/report');
    expect(Object.keys(anonymous.components.schemas)).not.toContain('PurgeCacheInput');
    expect(JSON.stringify(anonymous)).not.toMatch(/purge_cache|PurgeCache|Admins only|admin\/report/);
    expect((await get(`${base}/openapi.yaml`)).text).not.toMatch(/purge_cache|admin\/report/);

    // Without the scope: the same view as tools/list gives this caller.
    const reader = await documentFor(base, BASIC);
    expect(toolPaths(reader)).toEqual(await listedTools(mcp, BASIC));
    expect(Object.keys(reader.paths)).not.toContain('/admin/report');

    const admin = await documentFor(base, ADMIN);
    expect(toolPaths(admin)).toEqual(['add_numbers', 'purge_cache']);
    expect(toolPaths(admin)).toEqual(await listedTools(mcp, ADMIN));
    expect(admin.paths['/admin/report']).toBeDefined();
    expect(admin.components.schemas.PurgeCacheInput).toEqual({ type: 'object', properties: { region: { type: 'string' } }, required: ['region'] });

    // Credentials that fail are refused, not taken for the anonymous caller.
    expect((await get(`${base}/openapi.json`, 'Bearer not-a-known-token-0123456789')).status).toBe(401);
    // The page itself is open; what it shows is the document above.
    expect((await get(`${base}/docs`)).status).toBe(200);
  });

  it('without hideUnauthorized, lists name everything, and so does the document', async () => {
    const { base } = await start('listed', false);
    const anonymous = await documentFor(base);
    expect(toolPaths(anonymous)).toEqual(['add_numbers', 'purge_cache']);
    expect(anonymous.paths['/admin/report']).toBeDefined();
  });
});

describe('webServer.openapi.access: authenticated', () => {
  it('answers 401 without credentials (document, YAML and page); with them, each caller sees what it may list', async () => {
    const { base } = await start('authenticated');
    for (const path of ['/openapi.json', '/openapi.yaml', '/docs', '/docs/init.js']) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate'), path).toMatch(/Bearer|Basic/);
      expect(res.text, path).not.toMatch(/purge_cache|add_numbers|admin\/report/);
    }
    const reader = await documentFor(base, BASIC);
    expect(toolPaths(reader)).toEqual(['add_numbers']);
    expect(Object.keys(reader.paths)).not.toContain('/admin/report');
    const admin = await documentFor(base, ADMIN);
    expect(toolPaths(admin)).toEqual(['add_numbers', 'purge_cache']);
    expect(admin.paths['/admin/report']).toBeDefined();
    expect((await get(`${base}/docs`, ADMIN)).status).toBe(200);
  });
});
