/**
 * A record as read back from a sink: where it is (for messages), its stored text (a JSON line, the
 * table's `body`), and for the table the columns that repeat its fields, which must agree with it.
 */
import type { AuditRow } from './audit-migrations.js';
import type { AuditRecord } from './audit-record.js';
import { recordOutcome, recordSubject, recordTargetKind, recordTargetName } from './record-fields.js';

export interface StoredRecord {
  /** `file.jsonl:57`, `id 1234`. */
  ref: string;
  text: string;
  columns?: Omit<AuditRow, 'body' | 'id'>;
}

/** The first column of a row that disagrees with its record, as a sentence; undefined when all agree. */
export function columnMismatch(columns: NonNullable<StoredRecord['columns']>, r: AuditRecord): string | undefined {
  const expected: Array<[string, unknown, unknown]> = [
    ['chain', columns.chain, r.chain],
    ['seq', Number(columns.seq), r.seq],
    ['kind', columns.kind, r.kind],
    ['instance', columns.instance, r.instance],
    ['prev_hash', columns.prev_hash, r.prevHash],
    ['hash', columns.hash, r.hash],
    ['ts', new Date(columns.ts).getTime(), Date.parse(r.ts)],
  ];
  if (r.kind !== 'checkpoint') {
    expected.push(
      ['request_id', columns.request_id, r.requestId ?? null],
      ['subject', columns.subject, recordSubject(r)],
      ['method', columns.method, r.method ?? null],
      ['target_kind', columns.target_kind, recordTargetKind(r)],
      ['target_name', columns.target_name, recordTargetName(r)],
      ['outcome', columns.outcome, recordOutcome(r)],
      ['code', columns.code, r.outcome?.code ?? null],
    );
  }
  for (const [name, column, field] of expected) {
    if (column !== field) return `its column ${name} (${JSON.stringify(column)}) differs from its record (${JSON.stringify(field)})`;
  }
  return undefined;
}
