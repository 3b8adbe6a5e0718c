/**
 * REST routes next to MCP: validation, error mapping, request id, time limits,
 * scopes, rate limit, body limit, authentication, tools over REST through the
 * pipeline, and the OpenAPI document as JSON and YAML.
 */
import { load as parseYaml } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { initMcpServer, type McpServerHandle } from '../../src/index.js';
import { sample, scrape } from './helpers.js';
import { restServer } from './rest-fixture.js';

const handles: McpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
});

async function start(config: Record<string, unknown> = {}): Promise<{ handle: McpServerHandle; base: string }> {
  const webServer = (config.webServer as Record<string, unknown> | undefined) ?? {};
  const handle = await initMcpServer(restServer(), {
    handleSignals: false,
    config: { logger: { level: 'silent' }, ...config, webServer: { port: 0, rest: { exposeTools: true }, ...webServer } },
  });
  handles.push(handle);
  return { handle, base: new URL('/', handle.url!).toString().replace(/\/$/, '') };
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of many shapes
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

describe('REST routes', () => {
  it('validates and coerces parameters, maps errors, keeps the request id', async () => {
    const { base } = await start();
    const ok = await call(`${base}/api/users/1?verbose=true`, { headers: { 'x-request-id': 'rest-req-1' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: 1, name: 'Ada', requestId: 'rest-req-1' });
    expect(ok.headers.get('x-request-id')).toBe('rest-req-1');

    const bad = await call(`${base}/api/users/abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: -32602, data: { in: 'path', field: 'id' } });
    expect(bad.body.requestId).toBe(bad.headers.get('x-request-id'));

    const conflict = await call(`${base}/api/users/99`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toEqual({ code: -32007, message: 'No user 99', data: { id: 99 } });

    const created = await call(`${base}/api/users`, { method: 'POST', body: JSON.stringify({ name: 'Grace' }) });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 2, name: 'Grace' });
    const invalid = await call(`${base}/api/users`, { method: 'POST', body: JSON.stringify({ name: '', extra: 1 }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.data.in).toBe('body');

    expect((await call(`${base}/api/users/2`, { method: 'DELETE' })).status).toBe(204);
    const missing = await call(`${base}/api/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe(-32601);
    expect((await call(`${base}/api/raw/ping`)).body).toEqual({ pong: true });
  });

  it('sanitizes unexpected errors, enforces time limits and scopes', async () => {
    const { base } = await start();
    const broken = await call(`${base}/api/broken`);
    expect(broken.status).toBe(500);
    expect(broken.body.error.message).toBe(`Internal error (request id ${broken.body.requestId})`);
    expect(JSON.stringify(broken.body)).not.toContain('hunter2');
    const slow = await call(`${base}/api/slow`);
    expect(slow.status).toBe(504);
    expect(slow.body.error.code).toBe(-32004);
    const admin = await call(`${base}/api/admin/report`);
    expect(admin.status).toBe(403);
    expect(admin.body.error.data.missingScopes).toEqual(['admin']);
  });

  it('serves tools over REST through the same pipeline, and counts them', async () => {
    const { handle, base } = await start();
    const sum = await call(`${base}/api/tools/add_numbers`, { method: 'POST', body: JSON.stringify({ a: 2, b: 3 }) });
    expect(sum.status).toBe(200);
    expect(sum.body.structuredContent).toEqual({ sum: 5 });
    const invalid = await call(`${base}/api/tools/add_numbers`, { method: 'POST', body: JSON.stringify({ a: 'x' }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe(-32602);
    const unknown = await call(`${base}/api/tools/nope`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(400);
    const text = (await scrape(new URL('/metrics', handle.url!).toString())).text;
    expect(sample(text, 'mcp_tool_calls_total', { tool: 'add_numbers', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'mcp_tool_calls_total', { tool: 'add_numbers', outcome: 'invalid_params' })).toBe(1);
    expect(sample(text, 'mcp_tool_calls_total', { tool: 'unknown', outcome: 'invalid_params' })).toBe(1);
    expect(sample(text, 'mcp_rest_requests_total', { route: '/tools/:name', method: 'POST', status: '200' })).toBe(1);
  });

  it('applies the rate limit and the body limit', async () => {
    const { base } = await start({ mcp: { rateLimit: { maxRequests: 2 }, limits: { maxPayloadBytes: 1024 } } });
    expect((await call(`${base}/api/users/1`)).status).toBe(200);
    expect((await call(`${base}/api/users/1`)).status).toBe(200);
    const limited = await call(`${base}/api/users/1`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { base: base2 } = await start({ mcp: { limits: { maxPayloadBytes: 1024 } } });
    const big = await call(`${base2}/api/users`, { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(5000) }) });
    expect(big.status).toBe(413);
  });

  it('sits behind the same authentication as /mcp', async () => {
    const token = 'rest-test-token-0123456789abcdef0123';
    const { base } = await start({ webServer: { auth: { enabled: true, permanentServerTokens: [token] } } });
    expect((await call(`${base}/api/users/1`)).status).toBe(401);
    const ok = await call(`${base}/api/users/1`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    // The document and the reference page stay readable.
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
  });
});

describe('OpenAPI document', () => {
  it('is generated from the route declarations and the tool schemas, as JSON and YAML', async () => {
    const { base } = await start();
    const doc = (await call(`${base}/openapi.json`)).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'REST demo', version: '2.0.0', description: 'Users API next to MCP' });
    expect(doc.servers).toEqual([{ url: '/api' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/admin/report', '/broken', '/raw/ping', '/slow', '/tools/add_numbers', '/users', '/users/{id}']);
    const get = doc.paths['/users/{id}'].get;
    expect(get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      { name: 'verbose', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
    expect(get.responses['200'].content['application/json'].schema.required).toEqual(['id', 'name']);
    expect(doc.paths['/users'].post.responses['201']).toBeDefined();
    expect(doc.paths['/users'].post.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(doc.paths['/users/{id}'].delete).toBeDefined();
    expect(doc.paths['/admin/report'].get['x-required-scopes']).toEqual(['admin']);
    expect(doc.components.schemas.AddNumbersInput).toEqual(restServer().tools instanceof Array ? (restServer().tools as Array<{ inputSchema: unknown }>)[0]!.inputSchema : undefined);
    expect(doc.components.schemas.AddNumbersOutput.required).toEqual(['sum']);
    expect(doc.paths['/tools/add_numbers'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AddNumbersInput' });

    const yamlRes = await fetch(`${base}/openapi.yaml`);
    expect(yamlRes.headers.get('content-type')).toContain('yaml');
    expect(parseYaml(await yamlRes.text())).toEqual(doc);
  });

  it('serves the reference page and its assets from the package', async () => {
    const { base } = await start();
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    const init = await (await fetch(`${base}/docs/init.js`)).text();
    expect(init).toContain('"url":"/openapi.json"');
    expect(init).toContain('"validatorUrl":null');
  });

  it('is not served when the server declares no REST routes', async () => {
    const handle = await initMcpServer({ tools: [] }, { handleSignals: false, config: { webServer: { port: 0 }, logger: { level: 'silent' } } });
    handles.push(handle);
    const res = await fetch(new URL('/openapi.json', handle.url!));
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });
});
