/**
 * Where a request's observation begins (wire-observe.ts says why on every
 * route): `openScope` for both ways in, and `observeRequest` for the core
 * routes. A module of its own without the SDK, so that stdio's cold front
 * (cold-answers.ts) observes its answers before the SDK is loaded.
 */
import type { WireObserver, WireOutcome, WireRequest, WireRequestScope } from '../core/telemetry.js';
import type { HttpRequestFacts } from './request-facts.js';
import { toWireError } from '../core/error-mapping.js';

/**
 * Opens the observation of one request (the operations side records it when it ends: metrics,
 * spans, wire logs, the audit record). `facts`: what the HTTP front knows of the request, marked
 * observed so the front records no refusal of its own for it.
 */
export function openScope(observer: WireObserver, req: WireRequest, facts?: HttpRequestFacts): WireRequestScope {
  if (facts) facts.observed = true;
  return observer.request(req);
}

/**
 * A request a core route serves, under its observation: ended once, with what was answered (or
 * `cancelled`). `end` resolves before the answer may be written (the audit trail's `sync` mode) and
 * rejects when the request's record cannot be written: the answer is then that error (-32006).
 */
export interface ObservedRequest {
  scope: WireRequestScope;
  end(outcome: WireOutcome): Promise<void>;
}

const DONE = Promise.resolve();

export function observeRequest(observer: WireObserver, req: WireRequest, facts?: HttpRequestFacts): ObservedRequest {
  const scope = openScope(observer, req, facts);
  let observed = true;
  return {
    scope,
    end(outcome) {
      if (!observed) return DONE;
      observed = false;
      return scope.end(outcome) ?? DONE;
    },
  };
}

/** A JSON-RPC answer as the core routes write it: a result, or an error. */
export type AnswerMessage = { result: unknown; jsonrpc: '2.0'; id: string | number } | { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data?: unknown } };

/**
 * Ends the observation with `answer` and gives back what to write: the answer itself once its record
 * is written, or — the audit trail's `sync` mode could not write it — that failure as the JSON-RPC
 * error (-32006), so no call is answered unrecorded. `source`: the handler's result the answer's
 * result encodes, when it is another object.
 */
export async function answerOnceRecorded(observed: ObservedRequest, answer: AnswerMessage, source?: unknown): Promise<AnswerMessage> {
  try {
    await observed.end('error' in answer ? { error: answer.error } : source !== undefined ? { result: answer.result, source } : { result: answer.result });
    return answer;
  } catch (err) {
    const wire = toWireError(err, observed.scope.requestId);
    return { jsonrpc: '2.0', id: answer.id, error: { code: wire.code, message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } };
  }
}
