/**
 * Drives the demo server over Streamable HTTP with the official MCP client:
 * every tool, the prompt with completion, the resources, validation failures,
 * progress, cancellation and the tool timeout.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerHandle, PipelineStep } from 'fa-mcp-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { connectionInfo, formatConnectionInfo, formatStdioInfo } from '../src/connection-info.js';
import { buildDemoDist } from './demo-dist.js';
import { createDemoServer, type DemoServerOptions } from '../src/server.js';
import { assertSdkBuildIsCurrent } from '../../../scripts/test-kit/sdk-build.mjs';

// These tests run the built fa-mcp-sdk (its package exports point at dist/): a stale build would prove old code.
beforeAll(assertSdkBuildIsCurrent);

const quiet = (config: Record<string, unknown> = {}, steps: PipelineStep[] = []): DemoServerOptions => ({
  handleSignals: false,
  steps,
  config: { webServer: { port: 0 }, logger: { level: 'silent' }, ...config },
});

async function connect(url: string, withElicitation = true): Promise<Client> {
  const client = new Client(
    { name: 'demo-test', version: '1.0.0' },
    { capabilities: withElicitation ? { elicitation: { form: {} } } : {} },
  );
  if (withElicitation) {
    client.setRequestHandler('elicitation/create', async (req) => ({
      action: 'accept',
      content: { answer: `green, asked "${req.params.message}"` },
    }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The JSON-RPC error a rejected request carries. */
async function rpcError(promise: Promise<unknown>): Promise<ProtocolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProtocolError);
  return err as ProtocolError;
}

/** A consumer pipeline step that records how each tool call ended on the server. */
function outcomeRecorder() {
  const outcomes = new Map<string, 'ok' | 'failed'>();
  const step: PipelineStep = {
    name: 'test-outcomes',
    methods: ['tools/call'],
    async run(op, next) {
      const key = String(op.params.name) + ':' + op.ctx.requestId;
      try {
        const result = await next();
        outcomes.set(key, 'ok');
        return result;
      } catch (err) {
        outcomes.set(key, 'failed');
        throw err;
      }
    },
  };
  return { step, outcomes };
}

describe('fa-mcp-demo over Streamable HTTP', () => {
  let server: McpServerHandle;
  let client: Client;
  const recorder = outcomeRecorder();

  beforeAll(async () => {
    server = await createDemoServer(quiet({}, [recorder.step]));
    client = await connect(server.url as string);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop('test done');
  });

  it('prints what a user needs to connect', () => {
    const info = connectionInfo(server);
    if (!info) throw new Error('an HTTP server has connection info');
    expect(info.mcpUrl).toBe(server.url);
    expect(info.sseUrl).toBe(server.url?.replace(/\/mcp$/, '/sse'));
    const text = formatConnectionInfo(info);
    expect(text).toContain(`${server.url}`);
    expect(text).toContain('npx @modelcontextprotocol/inspector --cli');
    expect(text).toContain('"mcpServers"');
  });

  it('lists the four demo tools with their schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_time', 'convert_currency', 'slow_report', 'ask_user']));
    const getTime = tools.find((t) => t.name === 'get_time');
    expect(getTime?.outputSchema).toMatchObject({ required: ['iso', 'unixMs', 'timeZone', 'local'] });
    const convert = tools.find((t) => t.name === 'convert_currency');
    expect(convert?.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it('get_time returns structured content mirrored into content[0].text', async () => {
    const result = await client.callTool({ name: 'get_time', arguments: { timeZone: 'Europe/Berlin' } });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { iso: string; timeZone: string; unixMs: number };
    expect(data.timeZone).toBe('Europe/Berlin');
    expect(Date.parse(data.iso)).toBe(data.unixMs);
    const first = result.content[0];
    expect(first?.type).toBe('text');
    expect(JSON.parse((first as { text: string }).text)).toEqual(data);
  });

  it('get_time with an unknown time zone is a tool error the model can read', async () => {
    const result = await client.callTool({ name: 'get_time', arguments: { timeZone: 'Mars/Olympus' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('Unknown time zone');
  });

  it('convert_currency computes with the fixed demo rates', async () => {
    const result = await client.callTool({ name: 'convert_currency', arguments: { amount: 100, from: 'EUR', to: 'USD' } });
    expect(result.structuredContent).toEqual({ amount: 100, from: 'EUR', to: 'USD', rate: 1.1, result: 110 });
  });

  it('convert_currency answers bad input with an isError result the model reads: the field and the reason', async () => {
    const bad = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'convert_currency', arguments: args });
      expect(result.isError).toBe(true);
      return { text: (result.content as Array<{ text: string }>)[0]?.text, issue: result._meta?.['fa-mcp/validation'] };
    };
    expect(await bad({ amount: -5, from: 'EUR', to: 'USD' })).toEqual({
      text: 'Invalid arguments for tool convert_currency: amount must be >= 0',
      issue: { field: 'amount', reason: 'must be >= 0' },
    });
    expect((await bad({ amount: 1, from: 'EUR', to: 'BTC' })).issue).toMatchObject({ field: 'to' });
    expect((await bad({ amount: 1, from: 'EUR', to: 'USD', fee: 2 })).issue).toEqual({ field: 'fee', reason: 'is not allowed' });
  });

  it('convert_currency answers -32602 with { field, reason } under mcp.validation.argumentErrors: protocol', async () => {
    const strict = await createDemoServer(quiet({ mcp: { validation: { argumentErrors: 'protocol' } } }));
    const strictClient = await connect(strict.url as string);
    try {
      const negative = await rpcError(strictClient.callTool({ name: 'convert_currency', arguments: { amount: -5, from: 'EUR', to: 'USD' } }));
      expect(negative.code).toBe(-32602);
      expect(negative.message).toContain('Invalid arguments for tool convert_currency: amount must be >= 0');
      expect(negative.data).toMatchObject({ field: 'amount', reason: 'must be >= 0' });
    } finally {
      await strictClient.close();
      await strict.stop('test finished');
    }
  });

  it('slow_report sends increasing progress notifications up to the total', async () => {
    const updates: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool(
      { name: 'slow_report', arguments: { steps: 4, stepMs: 60 } },
      { onprogress: (p) => updates.push(p) },
    );
    expect(result.structuredContent).toMatchObject({ steps: 4 });
    expect(updates.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < updates.length; i++) {
      expect(updates[i]!.progress).toBeGreaterThan(updates[i - 1]!.progress);
    }
    expect(updates.at(-1)).toMatchObject({ progress: 4, total: 4 });
  });

  it('slow_report stops when the client cancels', async () => {
    const controller = new AbortController();
    const started = Date.now();
    // 50 steps of 1.2 s: a minute of work, so ending within seconds can only be the cancellation.
    const call = client.callTool({ name: 'slow_report', arguments: { steps: 50, stepMs: 1200 } }, { signal: controller.signal });
    setTimeout(() => controller.abort('user gave up'), 150);
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(20_000);
    // The handler saw its signal abort and stopped, long before the minute the report would take.
    const slowCalls = () => [...recorder.outcomes].filter(([key]) => key.startsWith('slow_report:')).map(([, v]) => v);
    await expect.poll(() => slowCalls().at(-1), { timeout: 10_000 }).toBe('failed');
  });

  it('ask_user asks through elicitation and returns the answer', async () => {
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Favourite colour?' } });
    expect(result.structuredContent).toEqual({ action: 'accept', answer: 'green, asked "Favourite colour?"' });
  });

  it('ask_user tells a client without elicitation that it cannot ask', async () => {
    const plain = await connect(server.url as string, false);
    try {
      const result = await plain.callTool({ name: 'ask_user', arguments: { question: 'Anyone there?' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('does not support elicitation');
    } finally {
      await plain.close();
    }
  });

  it('explain_topic renders with its arguments and completes them', async () => {
    const prompt = await client.getPrompt({ name: 'explain_topic', arguments: { topic: 'elicitation', audience: 'beginner' } });
    expect(JSON.stringify(prompt.messages)).toContain('Explain \\"elicitation\\"');

    const topics = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_topic' }, argument: { name: 'topic', value: 'mcp' } });
    expect(topics.completion.values).toEqual(['mcp tools', 'mcp prompts', 'mcp resources']);

    const missing = await rpcError(client.getPrompt({ name: 'explain_topic', arguments: {} }));
    expect(missing.code).toBe(-32602);
  });

  it('serves the static resource and the rates template with completion', async () => {
    const about = await client.readResource({ uri: 'demo://about' });
    expect(about.contents[0]).toMatchObject({ uri: 'demo://about', mimeType: 'text/markdown' });

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://rates/{currency}');

    const rates = await client.readResource({ uri: 'demo://rates/GBP' });
    const body = JSON.parse((rates.contents[0] as { text: string }).text) as { base: string; rates: Record<string, number> };
    expect(body.base).toBe('GBP');
    expect(body.rates.GBP).toBe(1);

    const codes = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://rates/{currency}' },
      argument: { name: 'currency', value: 'c' },
    });
    expect(codes.completion.values).toEqual(['CHF']);

    const unknown = await rpcError(client.readResource({ uri: 'demo://rates/XYZ' }));
    expect(unknown.message).toContain('demo://rates/XYZ');
  });
});

describe('fa-mcp-demo over stdio (node dist/start.js)', () => {
  let client: Client | undefined;
  afterAll(async () => {
    await client?.close();
  });

  it('starts, keeps stdout for JSON-RPC, says how to connect on stderr, and serves the tools', async () => {
    const start = buildDemoDist();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [start],
      env: { ...getDefaultEnvironment(), MCP_TRANSPORT_TYPE: 'stdio', LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'demo-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_time');
    const res = await client.callTool({ name: 'get_time', arguments: { timeZone: 'UTC' } });
    expect(res.isError).toBeFalsy();
    expect(stderr).toContain('serves MCP over stdio');
    expect(stderr).toContain(start);
    expect(stderr).not.toContain('http://');
  }, 150_000);

  it('has no HTTP connection info to print', () => {
    expect(formatStdioInfo('/srv/demo/dist/start.js')).toContain('"MCP_TRANSPORT_TYPE": "stdio"');
  });
});

describe('fa-mcp-demo limits', () => {
  it('a slow_report past its timeout answers -32004', async () => {
    const server = await createDemoServer(quiet({ mcp: { limits: { toolTimeouts: { slow_report: 200 } } } }));
    const client = await connect(server.url as string);
    try {
      const err = await rpcError(client.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }));
      expect(err.code).toBe(-32004);
    } finally {
      await client.close();
      await server.stop('test done');
    }
  });
});
