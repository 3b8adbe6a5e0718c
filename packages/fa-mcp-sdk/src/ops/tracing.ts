/**
 * Spans through @opentelemetry/api: one per MCP request (SERVER kind) and one
 * per tool call (INTERNAL, its child). The W3C trace context the request
 * arrived with becomes the parent. Without an OpenTelemetry SDK registered by
 * the application, the API hands out non-recording spans and this costs a
 * few object allocations: the span attributes, which a no-op tracer ignores,
 * are not even built then.
 */
import {
  context as otelContext,
  createTraceState,
  INVALID_SPAN_CONTEXT,
  ProxyTracer,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import type { Operation } from '../core/pipeline.js';
import type { TraceContext } from '../core/request-context.js';
import type { ToolCallTracer, WireOutcome, WireRequest } from '../core/telemetry.js';
import { outcomeOfError, outcomeOfResult } from '../core/tool-outcome.js';

export const TRACER_NAME = 'fa-mcp-sdk';

/** The context to start a span in: the active one when it holds a span, else the caller's remote context. */
export function parentContext(remote: TraceContext | undefined): Context {
  const active = otelContext.active();
  if (trace.getSpan(active)) return active;
  if (!remote) return active;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: remote.traceId,
    spanId: remote.parentId,
    traceFlags: remote.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
    ...(remote.tracestate ? { traceState: createTraceState(remote.tracestate) } : {}),
  });
}

export interface RequestSpan {
  /** Runs `fn` with this span active (so the handler's own spans nest under it). */
  run<T>(fn: () => T): T;
  end(outcome: WireOutcome): void;
  /** The trace id to log: the span's when recording, else the caller's. */
  traceId?: string;
  spanId?: string;
}

/** Span options when no SDK is registered: a no-op tracer reads only `root`, so the attributes are left out. */
const NOOP_SERVER_SPAN: SpanOptions = { kind: SpanKind.SERVER };
const NOOP_TOOL_SPAN: SpanOptions = { kind: SpanKind.INTERNAL };

export class Tracing implements ToolCallTracer {
  private readonly tracer: Tracer;
  /**
   * The API's proxy provider our tracer delegates to, while it has no SDK behind it
   * (its tracer is then the no-op one). A proxy's delegate, once set, stays:
   * from the first time it has one, this is undefined for good.
   */
  private proxy: { provider: ProxyTracerProvider; version: string } | undefined;
  /**
   * What a no-op tracer makes of a span without a parent: a non-recording span
   * of the invalid span context, stateless, so one serves every such request.
   */
  private readonly rootless: { context: Context; request: RequestSpan };

  constructor(version: string) {
    const provider = trace.getTracerProvider();
    this.tracer = provider.getTracer(TRACER_NAME, version);
    // Our tracer is a ProxyTracer of this provider exactly when the provider had no SDK yet.
    if (provider instanceof ProxyTracerProvider && this.tracer instanceof ProxyTracer) this.proxy = { provider, version };
    const rootless = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
    this.rootless = { context: rootless, request: { run: (fn) => otelContext.with(rootless, fn), end: () => undefined } };
  }

  /** True while spans cannot record (no SDK registered behind our tracer): options are then not read. */
  private get noop(): boolean {
    const proxy = this.proxy;
    if (!proxy) return false;
    if (proxy.provider.getDelegateTracer(TRACER_NAME, proxy.version) === undefined) return true;
    this.proxy = undefined;
    return false;
  }

  requestSpan(req: WireRequest, remote: TraceContext | undefined): RequestSpan {
    const parent = parentContext(remote);
    if (parent === ROOT_CONTEXT && this.noop) return this.rootless.request;
    const span = this.tracer.startSpan(req.method, this.noop ? NOOP_SERVER_SPAN : serverSpanOptions(req), parent);
    const active = trace.setSpan(parent, span);
    const sc = span.spanContext();
    const recording = span.isRecording();
    return {
      run: (fn) => otelContext.with(active, fn),
      end: (outcome) => endRequestSpan(span, outcome),
      ...(recording ? { traceId: sc.traceId, spanId: sc.spanId } : remote ? { traceId: remote.traceId } : {}),
    };
  }

  inSpan(op: Operation, label: () => Promise<string>, fn: () => Promise<unknown>): Promise<unknown> {
    const parent = parentContext(op.ctx.trace);
    if (parent === ROOT_CONTEXT && this.noop) return otelContext.with(this.rootless.context, fn);
    const options = this.noop ? NOOP_TOOL_SPAN : { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.operation.name': 'execute_tool' } };
    const span = this.tracer.startSpan('execute_tool', options, parent);
    if (!span.isRecording()) return otelContext.with(trace.setSpan(parent, span), fn);
    return this.recordTool(op, span, parent, label, fn);
  }

  private async recordTool(op: Operation, span: Span, parent: Context, label: () => Promise<string>, fn: () => Promise<unknown>): Promise<unknown> {
    try {
      const result = await otelContext.with(trace.setSpan(parent, span), fn);
      const outcome = outcomeOfResult(op, result);
      span.setAttribute('mcp.tool.outcome', outcome);
      if (outcome === 'tool_error' || outcome === 'invalid_params') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      return result;
    } catch (err) {
      const outcome = outcomeOfError(op, err);
      span.setAttribute('mcp.tool.outcome', outcome);
      if (outcome !== 'input_required') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      if (outcome === 'internal_error' && err instanceof Error) span.recordException({ name: err.name, message: err.message });
      throw err;
    } finally {
      const tool = await label().catch(() => 'unknown');
      span.updateName(`execute_tool ${tool}`);
      span.setAttribute('gen_ai.tool.name', tool);
      span.end();
    }
  }
}

function serverSpanOptions(req: WireRequest): SpanOptions {
  const toolName = req.method === 'tools/call' && typeof req.params?.name === 'string' ? req.params.name : undefined;
  return {
    kind: SpanKind.SERVER,
    attributes: {
      'mcp.method.name': req.method,
      'jsonrpc.request.id': String(req.id),
      'mcp.protocol.era': req.era,
      'network.transport': req.transport === 'stdio' ? 'pipe' : 'tcp',
      ...(req.sessionId ? { 'mcp.session.id': req.sessionId } : {}),
      ...(toolName ? { 'gen_ai.tool.name': toolName } : {}),
    },
  };
}

function endRequestSpan(span: Span, outcome: WireOutcome): void {
  if (!span.isRecording()) return;
  if ('error' in outcome) {
    span.setAttribute('rpc.jsonrpc.error_code', outcome.error.code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message.slice(0, 200) });
  } else if ('cancelled' in outcome) {
    span.setAttribute('mcp.request.cancelled', true);
  } else if ((outcome.result as { isError?: unknown } | undefined)?.isError === true) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool_error' });
  }
  span.end();
}
