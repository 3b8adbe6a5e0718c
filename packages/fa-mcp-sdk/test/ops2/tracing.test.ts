/**
 * Tracing with an in-memory span exporter: the caller's W3C trace context (HTTP
 * headers, or `_meta` on 2026-07-28 requests and over stdio) is the parent of a
 * span per request and per tool call; the handler's own spans nest inside; the
 * request id and trace id are on every log line of the request.
 */
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, type ITool } from '../../src/index.js';
import { startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { sleep } from './helpers.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

const traced: ITool = {
  name: 'traced_tool',
  description: 'Logs through the request logger and opens a span of its own.',
  inputSchema: { type: 'object' },
  handler: async ({ context: ctx }) => {
    ctx.logger?.info({ step: 'inside' }, 'handler log line');
    await trace.getTracer('consumer').startActiveSpan('consumer.work', async (span) => {
      await sleep(2);
      span.end();
    });
    return formatToolResult({ requestId: ctx.requestId, traceId: ctx.trace?.traceId });
  },
};

function logSink(): { stream: PassThrough; lines: () => Array<Record<string, unknown>> } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.trim().startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** An SDK client whose HTTP requests all carry `headers` (the test helper's client sends none). */
async function connectWithHeaders(server: TestServer, headers: Record<string, string>): Promise<Client> {
  const client = new Client(
    { name: 'trace-test', version: '1.0.0' },
    { versionNegotiation: { mode: server.target.era === '2026' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.handle.url!), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const clients: Client[] = [];

const byName = (spans: ReadableSpan[], name: string) => spans.find((s) => s.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

interface Case {
  target: TestTarget;
  /** How the trace context travels. */
  via: 'header' | 'meta';
}

const CASES: Case[] = [
  { target: { transport: 'http', era: '2025', label: 'http-session/2025' }, via: 'header' },
  { target: { transport: 'http', era: '2026', label: 'http/2026' }, via: 'header' },
  { target: { transport: 'http', era: '2026', label: 'http/2026' }, via: 'meta' },
  { target: { transport: 'stdio', era: '2026', label: 'stdio/2026' }, via: 'meta' },
];

describe.each(CASES)('tracing on $target.label via $via', ({ target, via }) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await server?.stop();
    server = undefined;
    exporter.reset();
  });

  it('continues the caller trace: request span -> tool span -> handler span; logs carry request and trace id', async () => {
    const logs = logSink();
    server = await startTestServer({ tools: [traced] }, { target, config: { logger: { level: 'info', format: 'json' } }, logDestination: logs.stream });
    const headers = via === 'header' ? { traceparent: TRACEPARENT, tracestate: 'vendor=abc' } : undefined;
    const client = headers ? await connectWithHeaders(server, headers) : await server.connect();
    exporter.reset();
    const result = await client.callTool({
      name: 'traced_tool',
      arguments: {},
      ...(via === 'meta' ? { _meta: { traceparent: TRACEPARENT, tracestate: 'vendor=abc' } } : {}),
    });
    const answer = result.structuredContent as { requestId: string; traceId: string };
    expect(answer.traceId).toBe(TRACE_ID);
    // The request span ends after its answer left: wait for it rather than for a guessed time.
    await expect.poll(() => byName(exporter.getFinishedSpans(), 'tools/call'), { timeout: 10_000 }).toBeDefined();

    const spans = exporter.getFinishedSpans();
    const request = byName(spans, 'tools/call');
    const tool = byName(spans, 'execute_tool traced_tool');
    const work = byName(spans, 'consumer.work');
    expect(request, spans.map((s) => s.name).join(',')).toBeDefined();
    expect(request!.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(request)).toBe(PARENT_ID);
    expect(request!.attributes['mcp.method.name']).toBe('tools/call');
    expect(request!.attributes['gen_ai.tool.name']).toBe('traced_tool');
    expect(tool!.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(tool)).toBe(request!.spanContext().spanId);
    expect(tool!.attributes['mcp.tool.outcome']).toBe('ok');
    expect(work!.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(work)).toBe(tool!.spanContext().spanId);
    expect(request!.spanContext().traceState?.get('vendor')).toBe('abc');

    const line = logs.lines().find((l) => l.msg === 'handler log line');
    expect(line).toMatchObject({ requestId: answer.requestId, traceId: TRACE_ID, spanId: request!.spanContext().spanId, step: 'inside' });
  });
});

describe('tracing without a caller context', () => {
  it('starts a new trace per request and marks failed tool calls', async () => {
    const server = await startTestServer(
      {
        tools: [
          traced,
          {
            name: 'broken_tool',
            inputSchema: { type: 'object' },
            handler: () => {
              throw new TypeError('boom');
            },
          },
        ],
      },
      { target: { transport: 'http', era: '2025', label: 'http-session/2025' } },
    );
    try {
      const client = await server.connect();
      exporter.reset();
      await client.callTool({ name: 'traced_tool', arguments: {} });
      await client.callTool({ name: 'broken_tool', arguments: {} }).catch(() => undefined);
      await expect.poll(() => exporter.getFinishedSpans().filter((s) => s.name === 'tools/call').length, { timeout: 10_000 }).toBe(2);
      const spans = exporter.getFinishedSpans();
      const requests = spans.filter((s) => s.name === 'tools/call');
      expect(requests).toHaveLength(2);
      expect(parentOf(requests[0])).toBeUndefined();
      expect(requests[0]!.spanContext().traceId).not.toBe(requests[1]!.spanContext().traceId);
      const broken = byName(spans, 'execute_tool broken_tool');
      expect(broken!.status.code).toBe(2); // ERROR
      expect(broken!.attributes['mcp.tool.outcome']).toBe('internal_error');
      expect(requests[1]!.attributes['rpc.jsonrpc.error_code']).toBe(-32603);
    } finally {
      await server.stop();
    }
  });

  it('creates no span when tracing.enabled is false', async () => {
    const server = await startTestServer({ tools: [traced] }, { config: { tracing: { enabled: false } } });
    try {
      const client = await server.connect();
      exporter.reset();
      await client.callTool({ name: 'traced_tool', arguments: {} });
      // The consumer's own span is there; a moment more for any framework span that should not be (a negative check).
      await expect.poll(() => exporter.getFinishedSpans().map((s) => s.name), { timeout: 10_000 }).toContain('consumer.work');
      await sleep(20);
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['consumer.work']);
    } finally {
      await server.stop();
    }
  });
});
