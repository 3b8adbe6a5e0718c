/**
 * A draft (what the request layer or the task runtime knows) made into the body of a record: the
 * time, the arguments as `mcp.audit.arguments` says, the handler's fields within their size cap.
 * Done when the draft is recorded, so later changes of the objects it names change nothing.
 */
import type { AuditArgumentsMode } from '../config/sections/audit.js';
import { auditArguments } from './audit-arguments.js';
import { AUDIT_RECORD_VERSION, type AuditDraft, type AuditOutcome, type AuditRecordBody } from './audit-record.js';

export interface BodyOptions {
  arguments: AuditArgumentsMode;
  maxExtraBytes: number;
  now: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const millis = (ms: number) => Math.round(ms * 1000) / 1000;

/** The handler's fields, or a note of their size when they are larger than the cap. */
function cappedExtra(extra: Record<string, unknown> | undefined, max: number): Record<string, unknown> | undefined {
  if (!extra || Object.keys(extra).length === 0) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify(extra), 'utf8');
  return bytes <= max ? extra : { _truncated: { bytes, max } };
}

export function recordBody(draft: AuditDraft, opts: BodyOptions): AuditRecordBody {
  if (draft.kind === 'task') {
    return {
      v: AUDIT_RECORD_VERSION,
      kind: 'task',
      ts: iso(draft.at ?? opts.now()),
      ...(draft.requestId ? { requestId: draft.requestId } : {}),
      ...(draft.era ? { era: draft.era } : {}),
      ...(draft.transport ? { transport: draft.transport } : {}),
      ...(draft.sessionId ? { sessionId: draft.sessionId } : {}),
      task: { ...draft.task },
      ...(draft.actor ? { actor: draft.actor } : {}),
    };
  }
  const args = auditArguments(opts.arguments, draft.arguments);
  const extra = cappedExtra(draft.extra, opts.maxExtraBytes);
  return {
    v: AUDIT_RECORD_VERSION,
    kind: 'request',
    ts: iso(draft.at ?? opts.now() - draft.durationMs),
    requestId: draft.requestId,
    ...(draft.traceId ? { traceId: draft.traceId } : {}),
    ...(draft.spanId ? { spanId: draft.spanId } : {}),
    ...(draft.era ? { era: draft.era } : {}),
    transport: draft.transport,
    ...(draft.sessionId ? { sessionId: draft.sessionId } : {}),
    ...(draft.remoteAddress ? { remoteAddress: draft.remoteAddress } : {}),
    principal: draft.principal ?? null,
    method: draft.method,
    ...(draft.target ? { target: { kind: draft.target.kind, name: draft.target.name } } : {}),
    outcome: { ...draft.outcome },
    durationMs: millis(draft.durationMs),
    ...(draft.resultBytes !== undefined ? { resultBytes: draft.resultBytes } : {}),
    ...(args ? { arguments: args } : {}),
    ...(extra ? { extra } : {}),
  };
}

/** The body of a request whose answer was replaced by -32006 because its own record could not be written. */
export function failedBody(body: AuditRecordBody): AuditRecordBody {
  if (body.kind !== 'request' || !body.outcome) return body;
  const outcome: AuditOutcome = { status: 'error', code: -32006, reason: 'audit_unavailable', original: body.outcome.original ?? body.outcome.status };
  return { ...body, outcome };
}
