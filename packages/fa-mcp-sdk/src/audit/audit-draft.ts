/**
 * Helpers for the request layer to fill a draft from what it holds: the request context (who,
 * which request, which transport and era), the wire outcome of the answer (ok, tool error,
 * JSON-RPC error, cancelled), and a refusal before the pipeline (HTTP 401, 403, 413, 429, Host or
 * Origin refused).
 */
import type { RequestContext } from '../core/request-context.js';
import type { WireOutcome } from '../core/telemetry.js';
import { auditPrincipal } from './audit-principal.js';
import type { AuditOutcome, AuditRequestDraft } from './audit-record.js';

/** The refusals the HTTP front answers before JSON-RPC, with their HTTP status. */
export const REFUSAL_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  payload_too_large: 413,
  rate_limited: 429,
  host_refused: 403,
  origin_refused: 403,
} as const;

export type AuditRefusalReason = keyof typeof REFUSAL_STATUS;

/** JSON-RPC codes that are refusals (the request was not served), with their reason. */
const REFUSAL_CODES: Record<number, string> = {
  [-32001]: 'forbidden',
  [-32003]: 'rate_limited',
  [-32005]: 'payload_too_large',
};

/** The draft fields a request context gives: request id, trace, era, transport, session, address, principal. */
export function contextFields(ctx: RequestContext, authMode?: string): Pick<AuditRequestDraft, 'requestId' | 'traceId' | 'era' | 'transport' | 'sessionId' | 'remoteAddress' | 'principal'> {
  return {
    requestId: ctx.requestId,
    ...(ctx.trace ? { traceId: ctx.trace.traceId } : {}),
    era: ctx.era,
    transport: ctx.transport,
    ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
    ...(ctx.remoteAddress ? { remoteAddress: ctx.remoteAddress } : {}),
    principal: auditPrincipal(ctx.auth, authMode),
  };
}

/** How the answer ended: a result (`isError: true` is a tool error), a JSON-RPC error (refusal codes are `refused`), or cancelled. */
export function wireOutcome(outcome: WireOutcome): AuditOutcome {
  if ('cancelled' in outcome) return { status: 'cancelled' };
  if ('error' in outcome) {
    const reason = REFUSAL_CODES[outcome.error.code];
    return reason ? { status: 'refused', code: outcome.error.code, reason } : { status: 'error', code: outcome.error.code };
  }
  const result = outcome.result as { isError?: unknown } | null | undefined;
  return result && typeof result === 'object' && result.isError === true ? { status: 'tool_error' } : { status: 'ok' };
}

/** A refusal answered by the HTTP front before the pipeline, with its HTTP status and the JSON-RPC code of its body when it had one. */
export function refusalOutcome(reason: AuditRefusalReason, code?: number): AuditOutcome {
  return { status: 'refused', ...(code !== undefined ? { code } : {}), reason, httpStatus: REFUSAL_STATUS[reason] };
}
