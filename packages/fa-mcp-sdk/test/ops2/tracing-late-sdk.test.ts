/**
 * Tracing that starts before the application registers its OpenTelemetry SDK:
 * while no SDK is there the spans are the API's no-op ones (their attributes
 * are not even built), and once one is registered the same Tracing records
 * full spans, attributes included.
 */
import { context, INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import type { WireRequest } from '../../src/core/telemetry.js';
import { Tracing } from '../../src/ops/tracing.js';
import { makeOp } from '../core/helpers.js';

afterAll(() => {
  trace.disable();
  context.disable();
});

const REQUEST: WireRequest = { method: 'tools/call', id: 7, params: { name: 'echo' }, era: '2026', transport: 'http', sessionId: 's-1' };
const PARENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', sampled: true };

describe('tracing when the SDK is registered after the server started', () => {
  it('no-op spans first (the caller trace id still logged), recorded spans with every attribute after', async () => {
    trace.disable();
    // A context manager without a tracer provider: the caller's trace context still travels in the active context.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const tracing = new Tracing('1.2.3');

    const before = tracing.requestSpan(REQUEST, PARENT);
    expect(before.traceId).toBe(PARENT.traceId); // the caller's, as no span records
    expect(before.spanId).toBeUndefined();
    expect(before.run(() => trace.getSpanContext(context.active())?.spanId)).toBe(PARENT.parentId);
    before.end({ result: {} });
    const rootless = tracing.requestSpan(REQUEST, undefined);
    expect(rootless.traceId).toBeUndefined();
    const inside = rootless.run(() => trace.getActiveSpan());
    expect(inside?.isRecording()).toBe(false);
    expect(inside?.spanContext()).toEqual(INVALID_SPAN_CONTEXT);
    rootless.end({ result: {} });
    const op = makeOp({ name: 'echo' }, { ctx: { requestId: 'r', era: '2026', transport: 'http', clientCapabilities: {}, trace: PARENT } });
    expect(await tracing.inSpan(op, async () => 'echo', async () => 'tool result')).toBe('tool result');

    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    try {
      const rootAfter = tracing.requestSpan(REQUEST, undefined);
      expect(rootAfter.spanId).toMatch(/^[0-9a-f]{16}$/);
      rootAfter.end({ result: {} });
      exporter.reset();
      const after = tracing.requestSpan(REQUEST, PARENT);
      expect(after.traceId).toBe(PARENT.traceId);
      expect(after.spanId).toMatch(/^[0-9a-f]{16}$/);
      await after.run(() => tracing.inSpan({ ...op, tool: { name: 'echo', inputSchema: { type: 'object' } } }, async () => 'echo', async () => ({ content: [] })));
      after.end({ result: {} });

      const spans = exporter.getFinishedSpans();
      const request = spans.find((s) => s.name === 'tools/call');
      const tool = spans.find((s) => s.name === 'execute_tool echo');
      expect(spans).toHaveLength(2);
      expect(request?.attributes).toEqual({
        'mcp.method.name': 'tools/call',
        'jsonrpc.request.id': '7',
        'mcp.protocol.era': '2026',
        'network.transport': 'tcp',
        'mcp.session.id': 's-1',
        'gen_ai.tool.name': 'echo',
      });
      expect(request?.parentSpanContext?.spanId).toBe(PARENT.parentId);
      expect(tool?.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'mcp.tool.outcome': 'ok', 'gen_ai.tool.name': 'echo' });
      expect(tool?.spanContext().traceId).toBe(PARENT.traceId);
    } finally {
      await provider.shutdown();
    }
  });
});
