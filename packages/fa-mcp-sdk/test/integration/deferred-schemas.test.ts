/**
 * Tool schemas compiled after the start (issue 24, cold start): a stdio server returns from
 * initMcpServer with its simple schemas not compiled, validates the first call's input and output as
 * before on both eras, compiles the rest once the SDK serves the connection (an HTTP server once it
 * listens), and still refuses at start a tool whose schema does not compile, with the same message.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatToolResult } from '../../src/core/results.js';
import type { ITool, JsonObject } from '../../src/core/types.js';
import { initMcpServer, type McpServerData } from '../../src/init-mcp-server.js';
import { createEraClient } from '../../src/testing/client-era.js';
import { expectToolError } from '../../src/testing/expect-tool-error.js';
import { StreamClientTransport } from '../../src/testing/stream-client-transport.js';
import { waitFor } from './helpers.js';

const forecast: ITool = {
  name: 'forecast',
  description: 'Temperature of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
  handler: ({ arguments: args }) => (args.city === 'Broken' ? { content: [], structuredContent: { temp: 'warm' } } : formatToolResult({ temp: 21 })),
};
const uncalled: ITool = {
  name: 'uncalled',
  description: 'Never called by this test',
  inputSchema: { type: 'object', properties: { a: { type: 'integer' } } },
  outputSchema: { type: 'object', properties: { b: { type: 'string' } } },
  handler: () => formatToolResult({ b: 'x' }),
};

const startOnStreams = (data: McpServerData) => {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const started = initMcpServer(data, {
    cwd: '/nonexistent',
    handleSignals: false,
    stdin: toServer,
    stdout: fromServer,
    config: { mcp: { transportType: 'stdio' }, logger: { level: 'silent' } },
  });
  return { started, toServer, fromServer };
};

describe.each(['2025', '2026'] as const)('deferred tool schemas on stdio (%s)', (era) => {
  it('are not compiled at start; the first calls validate input and output as before; the rest compile after the first answers', async () => {
    const { started, toServer, fromServer } = startOnStreams({ tools: [forecast, uncalled] });
    const handle = await started;
    const client = createEraClient(era);
    try {
      const compiled = (schema: JsonObject | undefined) => handle.core.registry.validator.isCompiled(schema as JsonObject);
      for (const tool of [forecast, uncalled]) {
        expect(compiled(tool.inputSchema), `${tool.name} input`).toBe(false);
        expect(compiled(tool.outputSchema), `${tool.name} output`).toBe(false);
      }
      await client.connect(new StreamClientTransport(fromServer, toServer));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'uncalled']);
      // Invalid arguments: an isError result naming the first problem (mcp.validation.argumentErrors: result).
      const bad = await client.callTool({ name: 'forecast', arguments: { city: 'X', extra: 1 } });
      expect(bad).toMatchObject({ isError: true, _meta: { 'fa-mcp/validation': { field: 'extra', reason: 'is not allowed' } } });
      const short = await expectToolError(client.callTool({ name: 'forecast', arguments: { city: 'X' } }), -32602);
      expect(short.data).toEqual({ field: 'city', reason: 'must NOT have fewer than 2 characters' });
      await expectToolError(client.callTool({ name: 'forecast', arguments: { city: 'Broken' } }), -32603);
      expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).structuredContent).toEqual({ temp: 21 });
      // the tool never called is compiled too, once the SDK serves the connection
      await waitFor(() => compiled(uncalled.inputSchema) && compiled(uncalled.outputSchema), 5_000, 'the deferred schemas compiled');
    } finally {
      await client.close().catch(() => undefined);
      await handle.stop('test done');
    }
  });
});

describe('after the first answers, on a stdio server no client talks to', () => {
  it('the deferred schemas compile and the process metrics start within a second, without a scrape', async () => {
    const { started } = startOnStreams({ tools: [uncalled] });
    const handle = await started;
    try {
      const compiled = (schema: JsonObject | undefined) => handle.core.registry.validator.isCompiled(schema as JsonObject);
      const processMetric = () => handle.metrics?.registry.getSingleMetric('process_cpu_user_seconds_total');
      expect(handle.metrics, 'metrics are on by default').toBeDefined();
      expect(processMetric(), 'process metrics wait for the first answers').toBeUndefined();
      await waitFor(() => processMetric() !== undefined && compiled(uncalled.inputSchema), 5_000, 'process metrics started and schemas compiled');
    } finally {
      await handle.stop('test done');
    }
  });
});

describe('deferred tool schemas on HTTP', () => {
  it('are compiled once the server listens, before any request', async () => {
    const handle = await initMcpServer(
      { tools: [uncalled] },
      { cwd: '/nonexistent', handleSignals: false, config: { mcp: { transportType: 'http' }, webServer: { host: '127.0.0.1', port: 0 }, logger: { level: 'silent' } } },
    );
    try {
      const compiled = (schema: JsonObject | undefined) => handle.core.registry.validator.isCompiled(schema as JsonObject);
      await waitFor(() => compiled(uncalled.inputSchema) && compiled(uncalled.outputSchema), 5_000, 'the deferred schemas compiled');
    } finally {
      await handle.stop('test done');
    }
  });
});

describe('a tool schema that does not compile', () => {
  it.each([
    ['an unresolvable $ref', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }],
    ['a type that is not one', { type: 'object', properties: { a: { type: 'nonsense' } } }],
    ['a regex that does not compile', { type: 'object', properties: { a: { type: 'string', pattern: '([' } } }],
  ])('still stops the start with the tool name and ajv message: %s', async (_name, inputSchema) => {
    const broken: ITool = { name: 'broken_tool', description: 'Broken', inputSchema: inputSchema as ITool['inputSchema'], handler: () => formatToolResult('x') };
    const { started } = startOnStreams({ tools: [broken] });
    await expect(started).rejects.toThrow(/^Tool "broken_tool": its schema does not compile: ./);
  });
});
