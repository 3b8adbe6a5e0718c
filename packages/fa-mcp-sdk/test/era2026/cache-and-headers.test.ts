/**
 * Cache hints from configuration on 2026-07-28 lists, reads and discovery
 * (and none on 2025-era answers), and the Mcp-Param-* headers that mirror
 * x-mcp-header arguments: checked against the body, refused on mismatch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { postMcp } from '../integration/helpers.js';
import { post2026 } from './wire.js';

const data: McpServerData = {
  tools: [
    {
      name: 'regional',
      description: 'Echoes its region argument and the Mcp-Param-Region header it arrived with.',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
        required: ['region'],
      },
      handler: ({ arguments: args, headers }) => formatToolResult({ region: args.region, header: headers?.['mcp-param-region'] ?? null }),
    },
  ],
  resources: [{ uri: 'test://doc', name: 'doc', mimeType: 'text/plain', content: 'doc' }],
};

const HTTP_2026 = { transport: 'http', era: '2026', label: 'http/2026' } as const;
const cacheHints = { ttlMs: 60_000, cacheScope: 'public', perMethod: { 'resources/read': { ttlMs: 5_000, cacheScope: 'private' } } };

describe('cache hints', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('puts the configured ttlMs and cacheScope on 2026-07-28 lists, reads and server/discover', async () => {
    const server = await startTestServer(data, { target: HTTP_2026, config: { mcp: { cacheHints } } });
    servers.push(server);
    const url = server.handle.url as string;
    expect((await post2026(url, 'tools/list')).response.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect((await post2026(url, 'resources/templates/list')).response.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect((await post2026(url, 'resources/read', { uri: 'test://doc' })).response.result).toMatchObject({ ttlMs: 5_000, cacheScope: 'private' });
    expect((await post2026(url, 'server/discover')).response.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
  });

  it('keeps the SDK default (ttlMs 0, private) without configuration', async () => {
    const server = await startTestServer(data, { target: HTTP_2026 });
    servers.push(server);
    expect((await post2026(server.handle.url as string, 'tools/list')).response.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('sends no cache fields to 2025-era clients', async () => {
    const server = await startTestServer(data, { target: { transport: 'stateless', era: '2025', label: 'http-stateless/2025' }, config: { mcp: { cacheHints } } });
    servers.push(server);
    const answer = await postMcp(server.handle.url as string, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { 'mcp-protocol-version': '2025-11-25' });
    const result = (Array.isArray(answer.json) ? answer.json[0] : answer.json) as { result: Record<string, unknown> };
    expect(result.result.tools).toBeDefined();
    expect(result.result).not.toHaveProperty('ttlMs');
    expect(result.result).not.toHaveProperty('cacheScope');
  });
});

describe('Mcp-Param-* headers (x-mcp-header)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(data, { target: HTTP_2026 });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const call = { name: 'regional', arguments: { region: 'eu-west' } };

  it('accepts a header that agrees with the body and lets the handler read it', async () => {
    const answer = await post2026(server.handle.url as string, 'tools/call', call, { headers: { 'mcp-param-region': 'eu-west' } });
    expect(answer.response.result).toMatchObject({ structuredContent: { region: 'eu-west', header: 'eu-west' } });
  });

  it('refuses a header that disagrees with the body, and a missing one, with -32020 and HTTP 400', async () => {
    const mismatch = await post2026(server.handle.url as string, 'tools/call', call, { headers: { 'mcp-param-region': 'us-east' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.response.error?.code).toBe(-32020);
    const missing = await post2026(server.handle.url as string, 'tools/call', call);
    expect(missing.status).toBe(400);
    expect(missing.response.error?.code).toBe(-32020);
  });

  it('is mirrored by the SDK 2026 client on its own', async () => {
    const client = await server.connect();
    const res = await client.callTool(call);
    expect(res.structuredContent).toEqual({ region: 'eu-west', header: 'eu-west' });
  });
});
