/**
 * `fa-mcp audit query`: records by time range, principal subject, method, target and outcome,
 * newest first. On PostgreSQL the filters are a WHERE on the indexed columns; on JSON Lines files
 * every line is read and the newest matches kept.
 */
import type { PgPool } from '../db/pg-types.js';
import type { AuditRecord, AuditRecordKind } from './audit-record.js';
import { readJsonlRecords } from './audit-read.js';
import { recordOutcome, recordSubject, recordTargetName } from './record-fields.js';

export interface AuditQuery {
  from?: Date;
  to?: Date;
  subject?: string;
  method?: string;
  /** A tool or prompt name, resource URI or task id. */
  target?: string;
  /** ok, tool_error, error, refused, cancelled (or a task status). */
  outcome?: string;
  /** Kinds to list; default request and task. */
  kinds?: readonly AuditRecordKind[];
  limit: number;
}

const DEFAULT_KINDS: readonly AuditRecordKind[] = ['request', 'task'];

export function matches(r: AuditRecord, q: AuditQuery): boolean {
  const ts = Date.parse(r.ts);
  if (!(q.kinds ?? DEFAULT_KINDS).includes(r.kind)) return false;
  if (q.from && ts < q.from.getTime()) return false;
  if (q.to && ts >= q.to.getTime()) return false;
  if (q.subject !== undefined && recordSubject(r) !== q.subject) return false;
  if (q.method !== undefined && r.method !== q.method) return false;
  if (q.target !== undefined && recordTargetName(r) !== q.target) return false;
  return q.outcome === undefined || recordOutcome(r) === q.outcome;
}

const newestFirst = (a: AuditRecord, b: AuditRecord) => Date.parse(b.ts) - Date.parse(a.ts) || b.seq - a.seq;

export async function queryJsonl(files: readonly string[], q: AuditQuery): Promise<AuditRecord[]> {
  let found: AuditRecord[] = [];
  for await (const stored of readJsonlRecords(files)) {
    let r: AuditRecord;
    try {
      r = JSON.parse(stored.text) as AuditRecord;
    } catch {
      continue; // `verify` is the judge of broken lines
    }
    if (!matches(r, q)) continue;
    found.push(r);
    if (found.length >= q.limit * 4) found = found.sort(newestFirst).slice(0, q.limit);
  }
  return found.sort(newestFirst).slice(0, q.limit);
}

export async function queryPostgres(pool: PgPool, q: AuditQuery): Promise<AuditRecord[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replace('?', `$${values.length}`));
  };
  add('kind = ANY(?)', [...(q.kinds ?? DEFAULT_KINDS)]);
  if (q.from) add('ts >= ?', q.from);
  if (q.to) add('ts < ?', q.to);
  if (q.subject !== undefined) add('subject = ?', q.subject);
  if (q.method !== undefined) add('method = ?', q.method);
  if (q.target !== undefined) add('target_name = ?', q.target);
  if (q.outcome !== undefined) add('outcome = ?', q.outcome);
  values.push(q.limit);
  const res = await pool.query<{ body: string }>(`SELECT body FROM fa_mcp_audit WHERE ${where.join(' AND ')} ORDER BY ts DESC, id DESC LIMIT $${values.length}`, values);
  return res.rows.map((row) => JSON.parse(row.body) as AuditRecord);
}
