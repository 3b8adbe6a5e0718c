/**
 * `fa-mcp-sdk/db`: PostgreSQL and pgvector for tools. Their one home: the main entry point does
 * not re-export them. An explicit list (FA-MCP-SDK-DOC/11-public-contract.md lists every name).
 */
export { Database, isDbConfigured, type DatabaseOptions, type PoolStats, type QueryResult, type QueryResultRow } from './database.js';
export { Databases, MAIN_DB, type DatabasesOptions } from './databases.js';
export type { FieldDef, PgClientConfig, PgPool, PgPoolClient, PgQueryable } from './pg-types.js';
export { currentDatabases, databaseScopeStep } from './db-scope.js';
export { isConnectionError } from './db-errors.js';
export { quoteIdent, quoteTable, type TableRef } from './identifiers.js';
export { DEFAULT_MERGE_BATCH_SIZE, type MergeByBatchArgs, type MergeByBatchResult } from './merge-by-batch.js';
export {
  DISTANCE_OPERATORS,
  toVectorSql,
  type DistanceOperator,
  type NearestArgs,
  type VectorColumnArgs,
  type VectorIndexArgs,
} from './pgvector.js';
export { MAX_BIND_PARAMS, type DbRecord, type InsertSqlArgs, type MergeSqlArgs, type QueryInput, type SqlQuery } from './sql-builders.js';
export {
  addVectorColumn,
  createVectorIndex,
  execDB,
  execMAIN,
  getDb,
  getInsertSqlDB,
  getInsertSqlMAIN,
  getMergeSqlDB,
  getMergeSqlMAIN,
  mergeByBatch,
  oneRowDB,
  oneRowMAIN,
  queryDB,
  queryMAIN,
  queryRsDB,
  queryRsMAIN,
  searchNearest,
  withTransaction,
} from './helpers.js';
export type { DbConnectionConfig, DbSectionConfig } from '../config/sections/db.js';
