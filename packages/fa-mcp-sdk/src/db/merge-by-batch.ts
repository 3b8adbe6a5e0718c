/**
 * Upserts of many records in batches: each batch is one multi-row
 * INSERT … ON CONFLICT statement in its own transaction (a savepoint when the
 * caller is already in one), so a failing batch leaves earlier ones committed.
 */
import { ValidationError } from '../core/errors.js';
import type { TableRef } from './identifiers.js';
import type { QueryResult, QueryResultRow } from './pg-types.js';
import { buildMergeSql, MAX_BIND_PARAMS, normalizeQuery, recordColumns, type DbRecord, type MergeSqlArgs, type SqlQuery } from './sql-builders.js';

/** What a batch merge needs of a database; a Database is one (Database.mergeByBatch passes itself). */
interface MergeTarget {
  primaryKey(table: TableRef): Promise<string[]>;
  withTransaction<T>(fn: (tx: MergeTarget) => Promise<T>): Promise<T>;
  query<R extends QueryResultRow = DbRecord>(statement: SqlQuery): Promise<QueryResult<R>>;
}

export const DEFAULT_MERGE_BATCH_SIZE = 1000;

export interface MergeByBatchArgs<R extends DbRecord = DbRecord> extends Partial<Omit<MergeSqlArgs<R>, 'recordset'>> {
  recordset: readonly R[];
  /** Records per statement (default 1000; lowered when the batch would exceed 65,535 parameters). */
  batchSize?: number;
  /** Builds the statement of one batch yourself (then `commonSchemaAndTable` is not needed). */
  getMergeSqlFn?: (batch: R[]) => SqlQuery | string | Promise<SqlQuery | string>;
  /** Called after each committed batch, e.g. to report progress. */
  onBatch?: (progress: { batches: number; records: number; total: number }) => void;
  /** Stops between batches when aborted (committed batches stay). */
  signal?: AbortSignal;
}

export interface MergeByBatchResult<R extends DbRecord = DbRecord> {
  batches: number;
  /** Rows inserted or updated, as PostgreSQL reports them. */
  rowCount: number;
  /** Rows of the RETURNING clauses, if any. */
  rows: R[];
}

export async function mergeByBatch<R extends DbRecord>(db: MergeTarget, args: MergeByBatchArgs<R>): Promise<MergeByBatchResult> {
  const { recordset, getMergeSqlFn, onBatch, signal } = args;
  let size = args.batchSize ?? DEFAULT_MERGE_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new ValidationError('batchSize must be a positive integer', { field: 'batchSize', reason: 'invalid' });
  const result: MergeByBatchResult = { batches: 0, rowCount: 0, rows: [] };
  if (recordset.length === 0) return result;

  let build: (batch: R[]) => Promise<SqlQuery>;
  if (getMergeSqlFn) {
    build = async (batch) => normalizeQuery(await getMergeSqlFn(batch));
  } else {
    const table = args.commonSchemaAndTable;
    if (table === undefined) throw new ValidationError('mergeByBatch needs commonSchemaAndTable or getMergeSqlFn', { reason: 'no target' });
    const conflictFields = args.conflictFields ?? (await db.primaryKey(table));
    const columns = Math.max(1, recordColumns(recordset, args.omitFields).length);
    size = Math.min(size, Math.floor(MAX_BIND_PARAMS / columns));
    build = async (batch) => buildMergeSql({ ...args, commonSchemaAndTable: table, recordset: batch, conflictFields });
  }

  for (let start = 0; start < recordset.length; start += size) {
    signal?.throwIfAborted();
    const batch = recordset.slice(start, start + size);
    const statement = await build(batch);
    const res = await db.withTransaction((tx) => tx.query(statement));
    result.batches += 1;
    result.rowCount += res.rowCount ?? 0;
    if (res.rows.length > 0) result.rows.push(...res.rows);
    onBatch?.({ batches: result.batches, records: Math.min(start + size, recordset.length), total: recordset.length });
  }
  return result;
}
