/** The fields a record is filed and searched under, whatever its kind (the table's columns, OpenTelemetry attributes, query filters). */
import type { AuditRecord } from './audit-record.js';

/** The principal's subject, or the actor's of a task record. */
export function recordSubject(r: AuditRecord): string | null {
  return r.principal?.subject ?? r.actor?.subject ?? null;
}

/** The request's target name, or the task id. */
export function recordTargetName(r: AuditRecord): string | null {
  return r.target?.name ?? r.task?.id ?? null;
}

/** The target's kind (`task` for a task record). */
export function recordTargetKind(r: AuditRecord): string | null {
  return r.target?.kind ?? (r.task ? 'task' : null);
}

/** The request's outcome status, or the task's status. */
export function recordOutcome(r: AuditRecord): string | null {
  return r.outcome?.status ?? r.task?.status ?? null;
}
