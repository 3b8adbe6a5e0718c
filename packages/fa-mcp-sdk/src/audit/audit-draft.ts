/**
 * Helpers for the request layer to fill a draft from what it holds: the request context (who,
 * which request, which transport and era), the wire outcome of the answer (ok, tool error,
 * JSON-RPC error, cancelled), and a refusal before the pipeline (HTTP 401, 403, 413, 429, Host or
 * Origin refused).
 */
import type { RequestContext } from '../core/request-context.js';
import type { WireOutcome, WireRequest } from '../core/telemetry.js';
import { auditPrincipal } from './audit-principal.js';
import type { AuditOutcome, AuditRequestDraft, AuditTarget } from './audit-record.js';

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
    return reason ? { code: outcome.error.code, reason, status: 'refused' } : { code: outcome.error.code, status: 'error' };
  }
  const result = outcome.result as { isError?: unknown } | null | undefined;
  return result && typeof result === 'object' && result.isError === true ? { status: 'tool_error' } : { status: 'ok' };
}

/** A refusal answered by the HTTP front before the pipeline, with its HTTP status and the JSON-RPC code of its body when it had one. */
export function refusalOutcome(reason: AuditRefusalReason, code?: number): AuditOutcome {
  return { ...(code !== undefined ? { code } : {}), httpStatus: REFUSAL_STATUS[reason], reason, status: 'refused' };
}

/**
 * What a request is about, from its method and params (the operation's target as the pipeline names
 * it, core/pipeline.ts): a tool, a prompt, a resource URI, a completion's reference, a task, a list,
 * an MCP Events type; undefined for a method about the server itself.
 */
export function targetOf(method: string, params: Record<string, unknown> | undefined): AuditTarget | undefined {
  const p = params ?? {};
  const name = (key: string): string => (typeof p[key] === 'string' ? (p[key] as string) : '');
  switch (method) {
    case 'tools/call':
      return { kind: 'tool', name: name('name') };
    case 'prompts/get':
      return { kind: 'prompt', name: name('name') };
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return { kind: 'resource', name: name('uri') };
    case 'completion/complete': {
      const ref = (p.ref ?? {}) as Record<string, unknown>;
      return ref.type === 'ref/resource' ? { kind: 'template', name: String(ref.uri ?? '') } : { kind: 'prompt', name: String(ref.name ?? '') };
    }
    case 'tasks/get':
    case 'tasks/result':
    case 'tasks/cancel':
    case 'tasks/update':
      return { kind: 'task', name: name('taskId') };
    default:
      if (method.endsWith('/list')) return { kind: 'list', name: method.slice(0, -'/list'.length) };
      if (method.startsWith('events/')) return name('name') ? { kind: 'event', name: name('name') } : undefined;
      return undefined;
  }
}

/** The arguments a request carries, as the trail records them (`mcp.audit.arguments`). */
const argumentsOf = (method: string, params: Record<string, unknown> | undefined): unknown =>
  method === 'tools/call' || method === 'prompts/get' || method.startsWith('events/') ? params?.arguments : undefined;

/** Size of a result as JSON, in bytes; undefined without one. */
function resultBytesOf(outcome: WireOutcome): number | undefined {
  if (!('result' in outcome) || outcome.result === undefined) return undefined;
  const text = JSON.stringify(outcome.result);
  return text === undefined ? undefined : Buffer.byteLength(text);
}

/** The record of one request from its observation (ops/wire-observer.ts): what arrived, who sent it, how it ended. Built member by member: this runs once per request. */
export function wireRequestDraft(
  req: WireRequest,
  seen: { requestId: string; traceId?: string; spanId?: string; durationMs: number; extra?: Record<string, unknown>; resultBytes?: number },
  outcome: WireOutcome,
): AuditRequestDraft {
  const draft: AuditRequestDraft = { requestId: seen.requestId, transport: req.transport, method: req.method, outcome: wireOutcome(outcome), durationMs: seen.durationMs };
  if (seen.traceId) draft.traceId = seen.traceId;
  if (seen.spanId) draft.spanId = seen.spanId;
  draft.era = req.era;
  if (req.sessionId) draft.sessionId = req.sessionId;
  if (req.remoteAddress) draft.remoteAddress = req.remoteAddress;
  draft.principal = auditPrincipal(req.auth);
  const target = targetOf(req.method, req.params);
  if (target) draft.target = target;
  const resultBytes = seen.resultBytes ?? resultBytesOf(outcome);
  if (resultBytes !== undefined) draft.resultBytes = resultBytes;
  const args = argumentsOf(req.method, req.params);
  if (args !== undefined) draft.arguments = args;
  if (seen.extra) draft.extra = seen.extra;
  return draft;
}
