/**
 * `mcp.tools.nameRule` (env MCP_TOOL_NAME_RULE): snake_case by default, the MCP revisions' rule
 * (1-128 characters of A-Z a-z 0-9 _ - .) when set to `mcp`. Under `mcp`, names like `get-sum`
 * and `admin.tools.list` are listed and called on every transport, era and request path, for
 * static tools and tools given as a function, and reach the REST routes, the OpenAPI document,
 * the metrics and the Agent Tester (whose model functions allow neither dots nor more than 64
 * characters) intact.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatToolResult, initMcpServer, type ITool, type McpServerData, type McpServerHandle } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { sample, scrape } from '../ops2/helpers.js';
import { answer, askTool, startScriptedModel } from '../agent-tester/scripted-model.js';

const LONG = `reports.${'quarterly-'.repeat(11)}summary`; // 125 characters

function tools(): ITool[] {
  const named = (name: string, extra: Partial<ITool> = {}): ITool => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    handler: ({ name: called, arguments: args }) => formatToolResult({ called, sum: Number(args.a ?? 0) + Number(args.b ?? 0) }),
    ...extra,
  });
  return [named('get-sum'), named('admin.tools.list'), named(LONG), named('get_sum'), named('getSum')];
}

const silent = { logger: { level: 'silent' }, webServer: { host: '127.0.0.1', port: 0 } };

describe('mcp.tools.nameRule', () => {
  const handles: McpServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.stop('test finished')));
  });

  it('snake_case (the default) refuses get-sum at start, naming the rule and the setting', async () => {
    const err = await initMcpServer({ tools: tools() }, { handleSignals: false, env: {}, config: silent }).then(
      (h) => (handles.push(h), undefined),
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('Invalid tool name "get-sum"');
    expect(err?.message).toContain('mcp.tools.nameRule is "snake_case" (MCP_TOOL_NAME_RULE)');
  });

  it('MCP_TOOL_NAME_RULE=mcp relaxes it from the environment', async () => {
    const handle = await initMcpServer({ tools: tools() }, { handleSignals: false, env: { MCP_TOOL_NAME_RULE: 'mcp' }, config: silent });
    handles.push(handle);
    expect(handle.config.mcp.tools.nameRule).toBe('mcp');
  });

  it('refuses a value other than snake_case or mcp', async () => {
    await expect(initMcpServer({ tools: [] }, { handleSignals: false, env: { MCP_TOOL_NAME_RULE: 'kebab' }, config: silent })).rejects.toThrow(/mcp\.tools\.nameRule/);
  });
});

describe.each(ALL_TARGETS.flatMap((target) => (['static', 'function'] as const).map((source) => ({ target, source, label: `${target.label}, ${source} tools` }))))(
  'names by the MCP rule: $label',
  ({ target, source }) => {
    let server: TestServer;
    afterAll(async () => {
      await server?.stop();
    });

    it('lists and calls get-sum, admin.tools.list and a 125-character name', async () => {
      const data: McpServerData = source === 'static' ? { tools: tools() } : { tools: () => tools() };
      server = await startTestServer(data, { target, config: { mcp: { tools: { nameRule: 'mcp' } } } });
      const client = await server.connect();
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(['get-sum', 'admin.tools.list', LONG, 'get_sum', 'getSum']);
      for (const name of ['get-sum', 'admin.tools.list', LONG]) {
        const res = await client.callTool({ name, arguments: { a: 2, b: 3 } });
        expect(res.structuredContent).toEqual({ called: name, sum: 5 });
      }
    });
  },
);

describe('names by the MCP rule outside MCP: REST, OpenAPI, metrics, Agent Tester', () => {
  const handles: McpServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.stop('test finished')));
  });

  it('REST routes call them, the OpenAPI document keeps them apart, the metrics label them', async () => {
    const handle = await initMcpServer(
      { tools: tools() },
      { handleSignals: false, env: {}, config: { ...silent, mcp: { tools: { nameRule: 'mcp' } }, webServer: { ...silent.webServer, rest: { exposeTools: true } } } },
    );
    handles.push(handle);
    const base = new URL('/', handle.url as string).origin;
    for (const name of ['get-sum', 'admin.tools.list', LONG]) {
      const res = await fetch(`${base}/api/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1,"b":2}' });
      expect(res.status, name).toBe(200);
      expect(((await res.json()) as { structuredContent: unknown }).structuredContent).toEqual({ called: name, sum: 3 });
    }
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, { post: { operationId: string; requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
      components: { schemas: Record<string, unknown> };
    };
    const ops = ['get-sum', 'admin.tools.list', LONG, 'get_sum', 'getSum'].map((name) => doc.paths[`/tools/${name}`]?.post);
    expect(ops.map((op) => op?.operationId)).toEqual(['tool_get-sum', 'tool_admin.tools.list', `tool_${LONG}`, 'tool_get_sum', 'tool_getSum']);
    // get_sum and getSum are both GetSum in PascalCase: each operation still points at a schema of its own
    const refs = ops.map((op) => op?.requestBody.content['application/json'].schema.$ref);
    expect(new Set(refs).size).toBe(refs.length);
    for (const ref of refs) expect(doc.components.schemas[(ref as string).replace('#/components/schemas/', '')]).toBeDefined();
    expect(refs.slice(3)).toEqual(['#/components/schemas/GetSumInput', '#/components/schemas/GetSum_2Input']);

    const metrics = (await scrape(new URL('/metrics', handle.url as string).toString())).text;
    expect(sample(metrics, 'mcp_tool_calls_total', { tool: 'admin.tools.list', outcome: 'ok' })).toBe(1);
    expect(sample(metrics, 'mcp_tool_calls_total', { tool: LONG, outcome: 'ok' })).toBe(1);
  });

  it('the Agent Tester offers them to the model under valid function names and calls the MCP tool', async () => {
    const model = await startScriptedModel();
    try {
      const handle = await initMcpServer(
        { tools: tools() },
        {
          handleSignals: false,
          env: {},
          nodeEnv: 'development',
          config: { ...silent, mcp: { tools: { nameRule: 'mcp' } }, agentTester: { model: { baseUrl: model.baseUrl, model: 'scripted-model', apiKey: 'sk-test-0123456789abcdef', timeoutMs: 5000 } } },
        },
      );
      handles.push(handle);
      const offered = (body: { tools?: Array<{ function: { name: string } }> }) => body.tools?.map((t) => t.function.name) ?? [];
      // The model sees the functions it is offered; it asks for the one standing for the long, dotted name.
      let fnOfLong = '';
      model.script([
        (req) => {
          const names = offered(req);
          for (const fn of names) expect(fn).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
          expect(new Set(names).size).toBe(5);
          fnOfLong = names[2] as string;
          return askTool(fnOfLong, { a: 20, b: 22 })(req);
        },
        answer('Done.'),
      ]);
      const res = await fetch(`${new URL('/', handle.url as string).origin}/agent-tester/api/chat/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Sum it' }),
      });
      expect(res.status).toBe(200);
      const trace = (await res.json()) as { stopReason: string; toolCalls: Array<{ name: string; isError: boolean; result: { structuredContent?: unknown } }> };
      expect(trace.stopReason).toBe('answer');
      expect(fnOfLong).not.toBe(LONG);
      expect(trace.toolCalls).toHaveLength(1);
      expect(trace.toolCalls[0]).toMatchObject({ name: LONG, isError: false, result: { structuredContent: { called: LONG, sum: 42 } } });
    } finally {
      await model.close();
    }
  });
});
