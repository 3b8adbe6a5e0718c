/**
 * The free functions of the specification: the *MAIN helpers work on the main
 * database, the *DB helpers on a database named by their first argument. Both
 * resolve the databases of the current request (see db-scope.ts).
 */
import type { QueryResult, QueryResultRow } from './pg-types.js';
import type { Database } from './database.js';
import { MAIN_DB } from './databases.js';
import { currentDatabases } from './db-scope.js';
import type { MergeByBatchArgs, MergeByBatchResult } from './merge-by-batch.js';
import type { NearestArgs, VectorColumnArgs, VectorIndexArgs } from './pgvector.js';
import type { DbRecord, InsertSqlArgs, MergeSqlArgs, QueryInput, SqlQuery } from './sql-builders.js';

/** The database `name` of the current request. */
export function getDb(name: string = MAIN_DB): Database {
  return currentDatabases().get(name);
}

const main = () => getDb(MAIN_DB);

export function queryMAIN<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<QueryResult<R>> {
  return main().query<R>(input, values);
}
export function queryRsMAIN<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<R[]> {
  return main().queryRs<R>(input, values);
}
export function oneRowMAIN<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<R | undefined> {
  return main().oneRow<R>(input, values);
}
export function execMAIN(input: QueryInput, values?: readonly unknown[]): Promise<number> {
  return main().exec(input, values);
}
export function getInsertSqlMAIN<R extends DbRecord>(args: InsertSqlArgs<R>): SqlQuery {
  return main().getInsertSql(args);
}
export function getMergeSqlMAIN<R extends DbRecord>(args: MergeSqlArgs<R>): Promise<SqlQuery> {
  return main().getMergeSql(args);
}

/** Batched upserts on the main database, or on `dbName`. */
export function mergeByBatch<R extends DbRecord>(args: MergeByBatchArgs<R> & { dbName?: string }): Promise<MergeByBatchResult> {
  const { dbName, ...rest } = args;
  return getDb(dbName).mergeByBatch(rest);
}

/** A transaction on the main database (`withTransaction(fn)`) or on a named one (`withTransaction(name, fn)`). */
export function withTransaction<T>(fn: (db: Database) => Promise<T>): Promise<T>;
export function withTransaction<T>(dbName: string, fn: (db: Database) => Promise<T>): Promise<T>;
export function withTransaction<T>(a: string | ((db: Database) => Promise<T>), b?: (db: Database) => Promise<T>): Promise<T> {
  if (typeof a === 'string') return getDb(a).withTransaction(b as (db: Database) => Promise<T>);
  return main().withTransaction(a);
}

export function queryDB<R extends QueryResultRow = DbRecord>(dbName: string, input: QueryInput, values?: readonly unknown[]): Promise<QueryResult<R>> {
  return getDb(dbName).query<R>(input, values);
}
export function queryRsDB<R extends QueryResultRow = DbRecord>(dbName: string, input: QueryInput, values?: readonly unknown[]): Promise<R[]> {
  return getDb(dbName).queryRs<R>(input, values);
}
export function oneRowDB<R extends QueryResultRow = DbRecord>(dbName: string, input: QueryInput, values?: readonly unknown[]): Promise<R | undefined> {
  return getDb(dbName).oneRow<R>(input, values);
}
export function execDB(dbName: string, input: QueryInput, values?: readonly unknown[]): Promise<number> {
  return getDb(dbName).exec(input, values);
}
export function getInsertSqlDB<R extends DbRecord>(dbName: string, args: InsertSqlArgs<R>): SqlQuery {
  return getDb(dbName).getInsertSql(args);
}
export function getMergeSqlDB<R extends DbRecord>(dbName: string, args: MergeSqlArgs<R>): Promise<SqlQuery> {
  return getDb(dbName).getMergeSql(args);
}

/** pgvector on the main database, or on `dbName`. */
export function addVectorColumn(args: VectorColumnArgs & { dbName?: string }): Promise<void> {
  const { dbName, ...rest } = args;
  return getDb(dbName).addVectorColumn(rest);
}
export function createVectorIndex(args: VectorIndexArgs & { dbName?: string }): Promise<void> {
  const { dbName, ...rest } = args;
  return getDb(dbName).createVectorIndex(rest);
}
export function searchNearest<R extends QueryResultRow = DbRecord>(args: NearestArgs & { dbName?: string }): Promise<Array<R & { distance: number }>> {
  const { dbName, ...rest } = args;
  return getDb(dbName).searchNearest<R>(rest);
}
