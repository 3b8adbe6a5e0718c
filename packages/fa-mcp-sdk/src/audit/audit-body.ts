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
  /** ISO 8601 of an epoch time (isoClock()); default a new Date's. */
  iso?: (ms: number) => string;
}

/** ISO 8601 of epoch times, keeping the last one: records under load share their millisecond. */
export function isoClock(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastText = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = new Date(ms).toISOString();
    }
    return lastText;
  };
}
const iso = (ms: number) => new Date(ms).toISOString();
const millis = (ms: number) => Math.round(ms * 1000) / 1000;

/** The handler's fields, or a note of their size when they are larger than the cap. */
function cappedExtra(extra: Record<string, unknown> | undefined, max: number): Record<string, unknown> | undefined {
  if (!extra || Object.keys(extra).length === 0) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify(extra), 'utf8');
  return bytes <= max ? extra : { _truncated: { bytes, max } };
}

/** Built member by member (no spreads of optional parts): this runs once per request. */
export function recordBody(draft: AuditDraft, opts: BodyOptions): AuditRecordBody {
  if (draft.kind === 'task') {
    const body: AuditRecordBody = { v: AUDIT_RECORD_VERSION, kind: 'task', ts: (opts.iso ?? iso)(draft.at ?? opts.now()) };
    if (draft.requestId) body.requestId = draft.requestId;
    if (draft.era) body.era = draft.era;
    if (draft.transport) body.transport = draft.transport;
    if (draft.sessionId) body.sessionId = draft.sessionId;
    body.task = { ...draft.task };
    if (draft.actor) body.actor = draft.actor;
    return body;
  }
  const body: AuditRecordBody = { v: AUDIT_RECORD_VERSION, kind: 'request', ts: (opts.iso ?? iso)(draft.at ?? opts.now() - draft.durationMs), requestId: draft.requestId };
  if (draft.traceId) body.traceId = draft.traceId;
  if (draft.spanId) body.spanId = draft.spanId;
  if (draft.era) body.era = draft.era;
  body.transport = draft.transport;
  if (draft.sessionId) body.sessionId = draft.sessionId;
  if (draft.remoteAddress) body.remoteAddress = draft.remoteAddress;
  body.principal = draft.principal ?? null;
  body.method = draft.method;
  if (draft.target) body.target = { kind: draft.target.kind, name: draft.target.name };
  body.outcome = { ...draft.outcome };
  body.durationMs = millis(draft.durationMs);
  if (draft.resultBytes !== undefined) body.resultBytes = draft.resultBytes;
  const args = auditArguments(opts.arguments, draft.arguments);
  if (args) body.arguments = args;
  const extra = cappedExtra(draft.extra, opts.maxExtraBytes);
  if (extra) body.extra = extra;
  return body;
}

/** The body of a request whose answer was replaced by -32006 because its own record could not be written. */
export function failedBody(body: AuditRecordBody): AuditRecordBody {
  if (body.kind !== 'request' || !body.outcome) return body;
  const outcome: AuditOutcome = { code: -32006, original: body.outcome.original ?? body.outcome.status, reason: 'audit_unavailable', status: 'error' };
  return { ...body, outcome };
}
