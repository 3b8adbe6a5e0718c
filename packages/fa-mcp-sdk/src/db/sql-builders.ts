/**
 * Builders of parameterised INSERT and upsert (INSERT … ON CONFLICT) statements.
 * Values always travel as parameters ($1, $2 …); identifiers are always quoted.
 * A missing key in a record becomes DEFAULT, an explicit null becomes NULL.
 */
import { ValidationError } from '../core/errors.js';
import { quoteColumns, quoteIdent, quoteTable, type TableRef } from './identifiers.js';

/** A parameterised statement, accepted by every query helper. */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

export type DbRecord = Record<string, unknown>;

/** PostgreSQL accepts at most this many bind parameters in one statement. */
export const MAX_BIND_PARAMS = 65_535;

export interface InsertSqlArgs<R extends DbRecord = DbRecord> {
  /** `table`, `schema.table` or `{ schema, table }`. */
  commonSchemaAndTable: TableRef;
  recordset: readonly R[];
  /** Keys of the records that are not inserted. */
  excludeFromInsert?: readonly string[];
  /** Add `RETURNING *`. */
  addOutputInserted?: boolean;
  /** false: add `ON CONFLICT DO NOTHING` (default true: a conflict is an error). */
  isErrorOnConflict?: boolean;
}

export interface MergeSqlArgs<R extends DbRecord = DbRecord> {
  commonSchemaAndTable: TableRef;
  recordset: readonly R[];
  /** Columns of the ON CONFLICT target; default: the table's primary key. */
  conflictFields?: readonly string[];
  /** Keys of the records that are neither inserted nor updated. */
  omitFields?: readonly string[];
  /** Columns set on conflict; default: every inserted column except the conflict fields. */
  updateFields?: readonly string[];
  /** Columns inserted but never updated (e.g. created_at). */
  fieldsExcludedFromUpdatePart?: readonly string[];
  /** On conflict, a null in the new record keeps the stored value. */
  noUpdateIfNull?: boolean;
  /** Last-chance rewrite of the generated text (values stay parameters). */
  mergeCorrection?: (sql: string) => string;
  /** `*` or column names for a RETURNING clause. */
  returning?: '*' | string | readonly string[];
}

/** The union of the records' keys, in first-seen order, minus `omit`. */
export function recordColumns(recordset: readonly DbRecord[], omit: readonly string[] = []): string[] {
  const skip = new Set(omit);
  const seen = new Set<string>();
  for (const record of recordset) for (const key of Object.keys(record)) if (!skip.has(key)) seen.add(key);
  return [...seen];
}

function valuesClause(recordset: readonly DbRecord[], columns: readonly string[], values: unknown[]): string {
  if (recordset.length * columns.length > MAX_BIND_PARAMS) {
    throw new ValidationError(
      `${recordset.length} records of ${columns.length} columns need more than ${MAX_BIND_PARAMS} parameters; use mergeByBatch or smaller batches`,
      { reason: 'too many parameters' },
    );
  }
  const rows = recordset.map((record) => {
    const cells = columns.map((column) => {
      const value = record[column];
      if (value === undefined) return 'DEFAULT';
      values.push(value);
      return `$${values.length}`;
    });
    return `(${cells.join(', ')})`;
  });
  return rows.join(', ');
}

export function returningClause(returning: MergeSqlArgs['returning']): string {
  if (returning === undefined) return '';
  if (returning === '*') return ' RETURNING *';
  const list = typeof returning === 'string' ? returning.split(',').map((s) => s.trim()) : [...returning];
  if (list.length === 0) return '';
  return ` RETURNING ${quoteColumns(list)}`;
}

function requireRecords(recordset: readonly DbRecord[], columns: readonly string[]): void {
  if (recordset.length === 0) throw new ValidationError('The recordset is empty', { reason: 'empty recordset' });
  if (columns.length === 0) throw new ValidationError('The records have no columns to insert', { reason: 'no columns' });
}

export function buildInsertSql<R extends DbRecord>(args: InsertSqlArgs<R>): SqlQuery {
  const columns = recordColumns(args.recordset, args.excludeFromInsert);
  requireRecords(args.recordset, columns);
  const values: unknown[] = [];
  let text = `INSERT INTO ${quoteTable(args.commonSchemaAndTable)} (${quoteColumns(columns)}) VALUES ${valuesClause(args.recordset, columns, values)}`;
  if (args.isErrorOnConflict === false) text += ' ON CONFLICT DO NOTHING';
  if (args.addOutputInserted) text += ' RETURNING *';
  return { text, values };
}

const bigintSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

/** Keeps the last record of each conflict key: one statement may not update a row twice. */
export function dedupeByKey<R extends DbRecord>(recordset: readonly R[], keys: readonly string[]): R[] {
  const byKey = new Map<string, R>();
  for (const record of recordset) byKey.set(JSON.stringify(keys.map((k) => record[k] ?? null), bigintSafe), record);
  return byKey.size === recordset.length ? [...recordset] : [...byKey.values()];
}

const TARGET_ALIAS = '"tgt"';

/** The upsert; `conflictFields` must be resolved (the caller looks up the primary key when absent). */
export function buildMergeSql<R extends DbRecord>(args: MergeSqlArgs<R> & { conflictFields: readonly string[] }): SqlQuery {
  const conflict = [...args.conflictFields];
  if (conflict.length === 0) throw new ValidationError('An upsert needs conflict fields (or a table with a primary key)', { reason: 'no conflict target' });
  const recordset = dedupeByKey(args.recordset, conflict);
  const columns = recordColumns(recordset, args.omitFields);
  requireRecords(recordset, columns);
  for (const key of conflict) {
    if (!columns.includes(key)) throw new ValidationError(`Conflict field "${key}" is missing from the records`, { field: key, reason: 'missing conflict field' });
  }
  const excluded = new Set([...conflict, ...(args.fieldsExcludedFromUpdatePart ?? [])]);
  const update = (args.updateFields ? [...args.updateFields] : columns).filter((c) => !excluded.has(c));
  const values: unknown[] = [];
  let text = `INSERT INTO ${quoteTable(args.commonSchemaAndTable)} AS ${TARGET_ALIAS} (${quoteColumns(columns)}) VALUES ${valuesClause(recordset, columns, values)}`;
  text += ` ON CONFLICT (${quoteColumns(conflict)})`;
  if (update.length === 0) {
    text += ' DO NOTHING';
  } else {
    const sets = update.map((c) => {
      const col = quoteIdent(c, 'column');
      return args.noUpdateIfNull ? `${col} = COALESCE(EXCLUDED.${col}, ${TARGET_ALIAS}.${col})` : `${col} = EXCLUDED.${col}`;
    });
    text += ` DO UPDATE SET ${sets.join(', ')}`;
  }
  text += returningClause(args.returning);
  if (args.mergeCorrection) text = args.mergeCorrection(text);
  return { text, values };
}

/** Accepted statement forms: text (+ values), `{ text, values }`, or the classic `{ sqlText, sqlValues }`. */
export type QueryInput = string | { text: string; values?: readonly unknown[] } | { sqlText: string; sqlValues?: readonly unknown[] };

export function normalizeQuery(input: QueryInput, values?: readonly unknown[]): SqlQuery {
  if (typeof input === 'string') return { text: input, values: values ? [...values] : [] };
  if ('sqlText' in input) return { text: input.sqlText, values: [...(input.sqlValues ?? values ?? [])] };
  return { text: input.text, values: [...(input.values ?? values ?? [])] };
}
