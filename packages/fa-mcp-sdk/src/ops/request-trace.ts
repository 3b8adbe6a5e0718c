/**
 * The W3C trace context of one MCP request: from `params._meta.traceparent`
 * (and `tracestate`) when present, which is how a 2026-07-28 request (or any
 * request over stdio) carries it, else from the HTTP headers.
 */
import type { TraceContext } from '../core/request-context.js';
import type { WireRequest } from '../core/telemetry.js';
import { capTracestate, parseTraceparent } from '../transport/http/traceparent.js';

export function traceOfRequest(req: WireRequest): TraceContext | undefined {
  const meta = req.params?._meta as Record<string, unknown> | undefined;
  const fromMeta = meta ? toContext(asString(meta.traceparent), asString(meta.tracestate)) : undefined;
  if (fromMeta) return fromMeta;
  if (!req.headers) return undefined;
  // tracestate means nothing without a traceparent: read only when there is one.
  const traceparent = req.headers.get('traceparent') ?? undefined;
  if (traceparent === undefined) return undefined;
  return toContext(traceparent, req.headers.get('tracestate') ?? undefined);
}

function toContext(traceparent: string | undefined, tracestate: string | undefined): TraceContext | undefined {
  const tp = parseTraceparent(traceparent);
  if (!tp) return undefined;
  const state = capTracestate(tracestate);
  return { traceId: tp.traceId, parentId: tp.parentId, sampled: tp.sampled, ...(state ? { tracestate: state } : {}) };
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
