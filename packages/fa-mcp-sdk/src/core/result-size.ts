/**
 * The serialized size of a tool call's result (UTF-8 bytes of its JSON),
 * measured once per call and shared by the steps that need it: the size cap
 * (cap-result.ts) measures every result, and the metrics step
 * (tool-metrics.ts) records the size of the same result object without
 * serializing it again. The measurement travels in the operation's state
 * (a Map made per call), not in a WeakMap keyed by results: a WeakMap entry
 * per call is an ephemeron every scavenge has to visit.
 *
 * A result is measured as it is when first asked about: a consumer step that
 * changes a result object in place after the cap measured it (instead of
 * returning a new one) is recorded with the size the cap saw.
 */
import { AuditFields } from './audit-fields.js';
import type { Operation } from './pipeline.js';

/** The operation state key of the measurement (framework keys are prefixed `fa-mcp/`). */
export const MEASURED_RESULT = 'fa-mcp/measured-result';

interface Measured {
  result: unknown;
  bytes: number;
}

/** The size of `result`'s JSON in bytes, measured once per call; throws as JSON.stringify does (a cycle, a BigInt). */
export function resultSize(op: Pick<Operation, 'state' | 'ctx'>, result: unknown): number {
  const known = op.state.get(MEASURED_RESULT) as Measured | undefined;
  if (known && known.result === result) return known.bytes;
  const bytes = Buffer.byteLength(JSON.stringify(result) ?? '');
  const measured: Measured = { result, bytes };
  op.state.set(MEASURED_RESULT, measured);
  // the audit record of the call reuses it (audit/audit-draft.ts)
  if (op.ctx.audit instanceof AuditFields) op.ctx.audit.noteResultSize(result, bytes);
  return bytes;
}
