/**
 * Cache hints from configuration on 2026-07-28 lists, reads and discovery
 * (and none on 2025-era answers), and the Mcp-Param-* headers that mirror
 * x-mcp-header arguments: checked against the body, refused on mismatch
 * (-32020, HTTP 400) on both request paths (core route and SDK route), for
 * static tools and tools given as a function alike; not checked on stdio
 * and for 2025-era clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, type ITool, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { LEGACY_PROTOCOL_VERSION, openRawSession, postMcp } from '../integration/helpers.js';
import { post2026 } from './wire.js';

/** Tools that mirror arguments into headers, and how many times their handlers ran. */
function headerTools(): { tools: ITool[]; runs: () => number } {
  let runs = 0;
  const tools: ITool[] = [
    {
      name: 'regional',
      description: 'Echoes its region argument and the Mcp-Param-Region header it arrived with.',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
        required: ['region'],
      },
      handler: ({ arguments: args, headers, context }) => {
        runs++;
        return formatToolResult({ region: args.region, header: headers?.['mcp-param-region'] ?? null, contextHeader: context.headers?.['mcp-param-region'] ?? null });
      },
    },
    {
      name: 'typed',
      description: 'Mirrors an integer, a boolean and an optional string.',
      inputSchema: {
        type: 'object',
        properties: {
          n: { type: 'integer', 'x-mcp-header': 'N' },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
          note: { type: 'string', 'x-mcp-header': 'Note' },
        },
      },
      handler: ({ arguments: args }) => {
        runs++;
        return formatToolResult({ args });
      },
    },
  ];
  return { tools, runs: () => runs };
}

const data: McpServerData = {
  tools: headerTools().tools,
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
  const sources = {
    static: (tools: ITool[]): McpServerData => ({ tools }),
    function: (tools: ITool[]): McpServerData => ({ tools: () => tools }),
  } as const;
  const HTTP_2026_TARGETS = ALL_TARGETS.filter((t) => t.transport === 'http' && t.era === '2026');
  const call = { name: 'regional', arguments: { region: 'eu-west' } };

  describe.each(HTTP_2026_TARGETS.flatMap((target) => (['static', 'function'] as const).map((source) => ({ target, source, label: `${target.label}, ${source} tools` }))))(
    '$label',
    ({ target, source }) => {
      let server: TestServer;
      let runs: () => number;
      let url: string;
      beforeAll(async () => {
        const made = headerTools();
        runs = made.runs;
        server = await startTestServer(sources[source](made.tools), { target });
        url = server.handle.url as string;
      });
      afterAll(async () => {
        await server?.stop();
      });

      /** A call refused with 400 / -32020 whose handler never ran. */
      async function expectRefused(params: Record<string, unknown>, headers: Record<string, string>, header: string, body: string): Promise<void> {
        const before = runs();
        const answer = await post2026(url, 'tools/call', params, { headers });
        expect(answer.status).toBe(400);
        expect(answer.messages).toHaveLength(1);
        expect(answer.response.error).toEqual({
          code: -32020,
          message: `Bad Request: the request headers and body disagree: ${body}`,
          data: { mismatch: { header, body } },
        });
        expect(runs()).toBe(before);
      }

      it('accepts a header that agrees with the body; the handler reads it in headers and context.headers', async () => {
        const answer = await post2026(url, 'tools/call', call, { headers: { 'mcp-param-region': 'eu-west' } });
        expect(answer.status).toBe(200);
        expect(answer.response.result).toMatchObject({ structuredContent: { region: 'eu-west', header: 'eu-west', contextHeader: 'eu-west' } });
      });

      it('decodes a =?base64?…?= header as UTF-8', async () => {
        const encoded = `=?base64?${Buffer.from('Zürich', 'utf8').toString('base64')}?=`;
        const answer = await post2026(url, 'tools/call', { name: 'regional', arguments: { region: 'Zürich' } }, { headers: { 'mcp-param-region': encoded } });
        expect(answer.status).toBe(200);
        expect(answer.response.result).toMatchObject({ structuredContent: { region: 'Zürich', header: encoded } });
      });

      it('refuses a disagreeing, a missing and a malformed header with 400 / -32020 and data.mismatch; the handler never runs', async () => {
        await expectRefused(call, { 'mcp-param-region': 'us-east' }, 'Mcp-Param-Region', 'the Mcp-Param-Region header decodes to "us-east" but the body carries region="eu-west"');
        await expectRefused(call, {}, 'Mcp-Param-Region', 'the body carries region="eu-west" but the Mcp-Param-Region header is absent');
        // not canonical Base64 (no padding), then not UTF-8
        await expectRefused(call, { 'mcp-param-region': '=?base64?ZXU?=' }, 'Mcp-Param-Region', 'the Mcp-Param-Region header carries an invalid Base64 sentinel value');
        await expectRefused(call, { 'mcp-param-region': '=?base64?/w==?=' }, 'Mcp-Param-Region', 'the Mcp-Param-Region header carries an invalid Base64 sentinel value');
        // header names are case-insensitive; the value is not
        await expectRefused(call, { 'MCP-PARAM-REGION': 'EU-WEST' }, 'Mcp-Param-Region', 'the Mcp-Param-Region header decodes to "EU-WEST" but the body carries region="eu-west"');
      });

      it('quotes a long body value in part, so the refusal stays small and is still HTTP 400', async () => {
        const region = 'r'.repeat(100_000);
        const quotedPart = `"${'r'.repeat(255)}… (100002 characters)`;
        await expectRefused({ name: 'regional', arguments: { region } }, {}, 'Mcp-Param-Region', `the body carries region=${quotedPart} but the Mcp-Param-Region header is absent`);
      });

      it('compares integers as numbers and booleans as true/false', async () => {
        const ok = await post2026(url, 'tools/call', { name: 'typed', arguments: { n: 42, flag: true } }, { headers: { 'mcp-param-n': '42.0', 'mcp-param-flag': 'true' } });
        expect(ok.status).toBe(200);
        expect(ok.response.result).toMatchObject({ structuredContent: { args: { n: 42, flag: true } } });
        await expectRefused({ name: 'typed', arguments: { n: 42 } }, { 'mcp-param-n': '43' }, 'Mcp-Param-N', 'the Mcp-Param-N header decodes to "43" but the body carries n=42');
        await expectRefused({ name: 'typed', arguments: { flag: false } }, { 'mcp-param-flag': 'true' }, 'Mcp-Param-Flag', 'the Mcp-Param-Flag header decodes to "true" but the body carries flag=false');
        await expectRefused({ name: 'typed', arguments: { flag: true } }, { 'mcp-param-flag': 'True' }, 'Mcp-Param-Flag', 'the Mcp-Param-Flag header decodes to "True" but the body carries flag=true');
      });

      it('expects no header for an absent or null body value (and ignores one sent)', async () => {
        for (const headers of [{}, { 'mcp-param-note': 'stray', 'mcp-param-n': '1' }] as Array<Record<string, string>>) {
          const answer = await post2026(url, 'tools/call', { name: 'typed', arguments: {} }, { headers });
          expect(answer.status).toBe(200);
          expect(answer.response.result).toMatchObject({ structuredContent: { args: {} } });
        }
        // null passes the header check; the inputSchema (a string) then refuses it as a tool result
        const before = runs();
        const nulled = await post2026(url, 'tools/call', { name: 'typed', arguments: { note: null } });
        expect(nulled.status).toBe(200);
        expect(nulled.response.result).toMatchObject({ isError: true, _meta: { 'fa-mcp/validation': { field: 'note' } } });
        expect(runs()).toBe(before);
      });

      it('is mirrored by the SDK 2026 client on its own', async () => {
        const client = await server.connect();
        const res = await client.callTool({ name: 'regional', arguments: { region: 'eu-west' } });
        expect(res.structuredContent).toEqual({ region: 'eu-west', header: 'eu-west', contextHeader: 'eu-west' });
        const typed = await client.callTool({ name: 'typed', arguments: { n: 7, flag: false, note: 'ünïcode' } });
        expect(typed.isError).toBeFalsy();
      });
    },
  );

  describe('an invalid x-mcp-header declaration (here on an object property) is refused alike however the tool is registered', () => {
    const invalid = (runs: { n: number }): ITool => ({
      name: 'bad_header',
      description: 'Marks an object property.',
      inputSchema: { type: 'object', properties: { filter: { type: 'object', 'x-mcp-header': 'Filter' } } },
      handler: () => {
        runs.n++;
        return formatToolResult('ran');
      },
    });

    it('static tools: the start fails, naming the tool and the property', async () => {
      const err = await startTestServer({ tools: [invalid({ n: 0 })] }, { target: HTTP_2026 }).then(
        async (s) => (await s.stop(), undefined),
        (e: unknown) => e as Error,
      );
      expect(err?.message).toContain('Tool "bad_header": invalid x-mcp-header on property "filter"');
    });

    it.each(HTTP_2026_TARGETS.map((t) => [t.label, t] as const))('tools given as a function (%s): every call is refused and the handler never runs', async (_label, target) => {
      const runs = { n: 0 };
      const server = await startTestServer({ tools: () => [invalid(runs)] }, { target });
      try {
        const answer = await post2026(server.handle.url as string, 'tools/call', { name: 'bad_header', arguments: {} }, { headers: {} });
        expect(answer.response.error?.code).toBe(-32603);
        expect(answer.response.result).toBeUndefined();
        expect(runs.n).toBe(0);
      } finally {
        await server.stop();
      }
    });
  });

  describe('not checked where no header is mirrored', () => {
    const servers: TestServer[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
    });

    it.each(ALL_TARGETS.filter((t) => t.transport === 'stdio' || (t.transport === 'http' && t.era === '2025')).map((target) => [target.label, target] as const))(
      '%s: the call runs without the header, which the handler sees as absent',
      async (_label: string, target: TestTarget) => {
        const server = await startTestServer(sources.function(headerTools().tools), { target });
        servers.push(server);
        const client = await server.connect();
        const res = await client.callTool(call);
        expect(res.structuredContent).toEqual({ region: 'eu-west', header: null, contextHeader: null });
      },
    );

    it.each(['static', 'function'] as const)(
      'a 2025-era session over HTTP with a disagreeing Mcp-Param-Region header (%s tools): not checked',
      async (source) => {
        const server = await startTestServer(sources[source](headerTools().tools), { target: ALL_TARGETS[0] as TestTarget });
        servers.push(server);
        const url = server.handle.url as string;
        const sessionId = await openRawSession(url);
        const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION, 'mcp-param-region': 'us-east' };
        const answer = await postMcp(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call }, headers);
        expect(answer.status).toBe(200);
        const message = (Array.isArray(answer.json) ? answer.json[0] : answer.json) as { result?: { structuredContent?: unknown } };
        expect(message.result?.structuredContent).toEqual({ region: 'eu-west', header: 'us-east', contextHeader: 'us-east' });
      },
    );
  });
});
