/**
 * The operations side of every JSON-RPC message: a span per request, the
 * request-bound child logger (request id and trace id on every line), the
 * `mcp_requests_total` counter, the `DEBUG=mcp:*` channels and the trace sink.
 * Each part is optional; what is off costs nothing.
 */
import { randomUUID } from 'node:crypto';
import type { CoreLogger } from '../core/core.js';
import { argumentErrorOf } from '../core/argument-errors.js';
import { MCP_ERROR_CODES } from '../core/errors.js';
import type { WireObserver, WireOutcome, WireRequest, WireRequestScope } from '../core/telemetry.js';
import type { TraceContext } from '../core/request-context.js';
import { channelOfMethod, type DebugChannel, type DebugChannels } from './debug-channels.js';
import type { RequestOutcome, ServerMetrics } from './metrics.js';
import { traceOfRequest } from './request-trace.js';
import type { TraceSink } from './trace-sink.js';
import type { RequestSpan, Tracing } from './tracing.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { AuditFields } from '../core/audit-fields.js';
import type { AuditTrail } from '../audit/audit-trail-api.js';
import { wireRequestDraft } from '../audit/audit-draft.js';

export interface WireObserverParts {
  logger: CoreLogger;
  metrics?: ServerMetrics;
  tracing?: Tracing;
  sink?: TraceSink;
  debug: DebugChannels;
  /** The audit trail (`mcp.audit`): one record per request, written here as its observation ends. */
  audit?: AuditTrail;
}

const OUTCOME_BY_CODE: ReadonlyMap<number, RequestOutcome> = new Map([
  [MCP_ERROR_CODES.INVALID_PARAMS, 'invalid_params'],
  [MCP_ERROR_CODES.METHOD_NOT_FOUND, 'method_not_found'],
  [MCP_ERROR_CODES.RATE_LIMITED, 'rate_limited'],
  [MCP_ERROR_CODES.TIMEOUT, 'timeout'],
  [MCP_ERROR_CODES.FORBIDDEN, 'forbidden'],
]);

export function requestOutcome(outcome: WireOutcome): RequestOutcome {
  if ('cancelled' in outcome) return 'cancelled';
  if ('error' in outcome) return OUTCOME_BY_CODE.get(outcome.error.code) ?? 'error';
  if ((outcome.result as { isError?: unknown } | undefined)?.isError !== true) return 'ok';
  // Arguments refused with a tool result (mcp.validation.argumentErrors: result) count as they do answered -32602.
  return argumentErrorOf(outcome.result) ? 'invalid_params' : 'tool_error';
}

export function createWireObserver(parts: WireObserverParts): WireObserver {
  const { metrics, sink, debug } = parts;
  return {
    request: (req: WireRequest): WireRequestScope => new RequestScope(parts, req),
    notification(direction, method, params, era, transport) {
      metrics?.notification(direction, method);
      debug.notification('%s %s', direction === 'in' ? '<-' : '->', method);
      const channel = channelOfMethod(method);
      if (channel) debug[channel]('%s %s', direction === 'in' ? '<-' : '->', method);
      sink?.emit({ kind: 'notification', direction, method, era, transport, params });
    },
    outboundRequest(method, id) {
      debug.rpc('=> %s id=%s (server to client)', method, id);
    },
    connection(era, transport) {
      debug.handshake('connection opened era=%s transport=%s', era, transport);
      // HTTP sessions are counted by the session manager; per-request instances are not sessions.
      const close = metrics && transport !== 'http' ? metrics.connectionOpened(era, transport) : undefined;
      return () => {
        close?.();
        debug.handshake('connection closed era=%s transport=%s', era, transport);
      };
    },
  };
}

/** The observation of one request: one object, its methods on the prototype. */
class RequestScope implements WireRequestScope {
  readonly requestId: string;
  readonly trace?: TraceContext;
  readonly logger: CoreLogger;
  private readonly started = performance.now();
  private readonly span: RequestSpan | undefined;
  private readonly channel: DebugChannel | undefined;
  private readonly traceId: string | undefined;
  private ended = false;
  private fields: AuditFields | undefined;

  constructor(
    private readonly parts: WireObserverParts,
    private readonly req: WireRequest,
  ) {
    const { tracing, sink, debug } = parts;
    const requestId = req.requestId ?? randomUUID();
    this.requestId = requestId;
    const remote = traceOfRequest(req);
    if (remote) this.trace = remote;
    const span = tracing?.requestSpan(req, remote);
    this.span = span;
    const traceId = span?.traceId ?? remote?.traceId;
    this.traceId = traceId;
    const bindings: Record<string, unknown> = { requestId };
    if (traceId) bindings.traceId = traceId;
    if (span?.spanId) bindings.spanId = span.spanId;
    this.logger = lazyChildLogger(parts.logger, bindings);
    const channel = channelOfMethod(req.method);
    this.channel = channel;
    // A channel that is off is not called at all (the call itself would gather its arguments).
    if (debug.rpc.enabled) debug.rpc('<- %s id=%s requestId=%s era=%s transport=%s', req.method, req.id, requestId, req.era, req.transport);
    // The summary is built only for a channel that is on.
    if (channel && debug[channel].enabled) debug[channel]('<- %s %O', req.method, summarize(req));
    sink?.emit({ kind: 'request', requestId, ...(traceId ? { traceId } : {}), era: req.era, transport: req.transport, sessionId: req.sessionId, id: req.id, method: req.method, params: req.params });
  }

  run<T>(fn: () => T): T {
    return this.span ? this.span.run(fn) : fn();
  }

  /** The handler's own fields of this request's audit record (made on first use; none with the trail off). */
  get audit(): AuditFields | undefined {
    if (!this.parts.audit?.enabled) return undefined;
    return (this.fields ??= new AuditFields());
  }

  end(outcome: WireOutcome): void | Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const recorded = this.record(outcome);
    this.observe(outcome);
    return recorded;
  }

  /** The request's audit record, from the one place every request's observation ends (sync mode: the promise the answer waits for). */
  private record(outcome: WireOutcome): Promise<void> | undefined {
    const audit = this.parts.audit;
    if (!audit?.enabled) return undefined;
    const extra = this.fields?.fields();
    const durationMs = Math.round((performance.now() - this.started) * 1000) / 1000;
    const seen: Parameters<typeof wireRequestDraft>[1] = { requestId: this.requestId, durationMs };
    if (this.traceId) seen.traceId = this.traceId;
    if (this.span?.spanId) seen.spanId = this.span.spanId;
    if (extra) seen.extra = extra;
    const measured = 'result' in outcome ? this.fields?.resultSizeOf(outcome.source ?? outcome.result) : undefined;
    if (measured !== undefined) seen.resultBytes = measured;
    const draft = wireRequestDraft(this.req, seen, outcome);
    const written = audit.record(draft);
    if (audit.mode === 'sync') return written;
    written.catch(() => undefined); // async: queued or dropped and counted, never failing the answer
    return undefined;
  }

  private observe(outcome: WireOutcome): void {
    const { req, channel, traceId, requestId } = this;
    const { metrics, debug, sink } = this.parts;
    const ms = Math.round((performance.now() - this.started) * 1000) / 1000;
    const result = requestOutcome(outcome);
    metrics?.request(req.method, result);
    this.span?.end(outcome);
    if (debug.rpc.enabled) debug.rpc('-> %s id=%s %s in %d ms', req.method, req.id, result, ms);
    if (channel && debug[channel].enabled) debug[channel]('-> %s %s in %d ms', req.method, result, ms);
    if (sink) {
      const payload = 'result' in outcome ? { result: outcome.result } : 'error' in outcome ? { error: outcome.error } : { cancelled: true };
      sink.emit({ kind: 'response', requestId, ...(traceId ? { traceId } : {}), id: req.id, method: req.method, outcome: result, durationMs: ms, ...payload });
    }
  }
}

function summarize(req: WireRequest): Record<string, unknown> {
  const p = req.params ?? {};
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'uri', 'protocolVersion', 'cursor']) if (p[key] !== undefined) out[key] = p[key];
  if (req.method === 'initialize' && p.clientInfo) out.clientInfo = p.clientInfo;
  return out;
}
