/**
 * The operations side of every JSON-RPC message: a span per request, the
 * request-bound child logger (request id and trace id on every line), the
 * `mcp_requests_total` counter, the `DEBUG=mcp:*` channels and the trace sink.
 * Each part is optional; what is off costs nothing.
 */
import { randomUUID } from 'node:crypto';
import type { CoreLogger } from '../core/core.js';
import { MCP_ERROR_CODES } from '../core/errors.js';
import type { WireObserver, WireOutcome, WireRequest, WireRequestScope } from '../core/telemetry.js';
import { channelOfMethod, type DebugChannels } from './debug-channels.js';
import type { RequestOutcome, ServerMetrics } from './metrics.js';
import { traceOfRequest } from './request-trace.js';
import type { TraceSink } from './trace-sink.js';
import type { Tracing } from './tracing.js';
import { lazyChildLogger } from './lazy-child-logger.js';

export interface WireObserverParts {
  logger: CoreLogger;
  metrics?: ServerMetrics;
  tracing?: Tracing;
  sink?: TraceSink;
  debug: DebugChannels;
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
  return (outcome.result as { isError?: unknown } | undefined)?.isError === true ? 'tool_error' : 'ok';
}

export function createWireObserver(parts: WireObserverParts): WireObserver {
  const { metrics, tracing, sink, debug, logger } = parts;
  return {
    request(req: WireRequest): WireRequestScope {
      const started = performance.now();
      const requestId = req.headers?.get('x-request-id') ?? randomUUID();
      const remote = traceOfRequest(req);
      const span = tracing?.requestSpan(req, remote);
      const traceId = span?.traceId ?? remote?.traceId;
      const bindings: Record<string, unknown> = { requestId };
      if (traceId) bindings.traceId = traceId;
      if (span?.spanId) bindings.spanId = span.spanId;
      const channel = channelOfMethod(req.method);
      debug.rpc('<- %s id=%s requestId=%s era=%s transport=%s', req.method, req.id, requestId, req.era, req.transport);
      if (channel) debug[channel]('<- %s %O', req.method, summarize(req));
      sink?.emit({ kind: 'request', requestId, ...(traceId ? { traceId } : {}), era: req.era, transport: req.transport, sessionId: req.sessionId, id: req.id, method: req.method, params: req.params });
      let ended = false;
      return {
        requestId,
        ...(remote ? { trace: remote } : {}),
        logger: lazyChildLogger(logger, bindings),
        run: (fn) => (span ? span.run(fn) : fn()),
        end(outcome) {
          if (ended) return;
          ended = true;
          const ms = Math.round((performance.now() - started) * 1000) / 1000;
          const result = requestOutcome(outcome);
          metrics?.request(req.method, result);
          span?.end(outcome);
          debug.rpc('-> %s id=%s %s in %d ms', req.method, req.id, result, ms);
          if (channel) debug[channel]('-> %s %s in %d ms', req.method, result, ms);
          if (sink) {
            const payload = 'result' in outcome ? { result: outcome.result } : 'error' in outcome ? { error: outcome.error } : { cancelled: true };
            sink.emit({ kind: 'response', requestId, ...(traceId ? { traceId } : {}), id: req.id, method: req.method, outcome: result, durationMs: ms, ...payload });
          }
        },
      };
    },
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

function summarize(req: WireRequest): Record<string, unknown> {
  const p = req.params ?? {};
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'uri', 'protocolVersion', 'cursor']) if (p[key] !== undefined) out[key] = p[key];
  if (req.method === 'initialize' && p.clientInfo) out.clientInfo = p.clientInfo;
  return out;
}
