/**
 * What the HTTP transport tells the core about a request: its correlation id
 * (already accepted or minted into X-Request-Id), W3C trace context and headers.
 */
import type { RequestContext } from '../../core/request-context.js';
import type { HeaderReader } from '../../protocol/request-context-builder.js';
import { httpFactsOf, type HttpRequestFacts } from '../../protocol/request-facts.js';
import type { NodeHeaderView } from './node-headers.js';
import { capTracestate, parseTraceparent } from './traceparent.js';

/**
 * `req` is a web Request (its facts kept beside its headers, protocol/request-facts.ts), or what a
 * core route reads of a node request (http-exchange.ts: its headers view and its facts): both read alike.
 */
export function describeHttpRequest(req: { headers: HeaderReader; facts?: HttpRequestFacts }, into: RequestContext): void {
  const facts = req.facts ?? httpFactsOf(req.headers);
  if (facts) into.requestId = facts.requestId;
  const tp = parseTraceparent(req.headers.get('traceparent') ?? undefined);
  if (tp) {
    const tracestate = capTracestate(req.headers.get('tracestate') ?? undefined);
    const trace: NonNullable<RequestContext['trace']> = { traceId: tp.traceId, parentId: tp.parentId, sampled: tp.sampled };
    if (tracestate) trace.tracestate = tracestate;
    into.trace = trace;
  }
  into.headers = recordOf(req.headers);
  if (facts?.remoteAddress) into.remoteAddress = facts.remoteAddress;
}

/** The headers as a record, as `forEach` gives them; the fast lane's view builds it at once. */
function recordOf(reader: HeaderReader & Partial<Pick<NodeHeaderView, 'toRecord'>>): Record<string, string> {
  if (reader.toRecord) return reader.toRecord();
  const headers: Record<string, string> = {};
  reader.forEach((value, key) => {
    headers[key] = value;
  });
  return headers;
}
