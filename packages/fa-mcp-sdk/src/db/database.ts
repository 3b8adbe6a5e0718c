/**
 * One named database: a lazily created `pg` pool (or the embedded PGlite behind
 * one), the query helpers, upserts, transactions and pgvector searches. Inside
 * `withTransaction(fn)` every helper of this database called from `fn` (also
 * through the *MAIN free functions) runs on the transaction's client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { DbConnectionConfig } from '../config/sections/db.js';
import type { CoreLogger } from '../core/core.js';
import { UpstreamUnavailableError } from '../core/errors.js';
import { loadOptional } from '../core/optional-package.js';
import { toDbError } from './db-errors.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js';
import { quoteTable, type TableRef } from './identifiers.js';
import { mergeByBatch, type MergeByBatchArgs, type MergeByBatchResult } from './merge-by-batch.js';
import {
  addVectorColumnSql,
  createVectorIndexSql,
  nearestSql,
  type NearestArgs,
  type VectorColumnArgs,
  type VectorIndexArgs,
} from './pgvector.js';
import { EMBEDDED_MAX_POOL, PoolTypes, poolConfig, setupExtensions } from './pool-setup.js';
import {
  buildInsertSql,
  buildMergeSql,
  normalizeQuery,
  type DbRecord,
  type InsertSqlArgs,
  type MergeSqlArgs,
  type QueryInput,
  type SqlQuery,
} from './sql-builders.js';

import type { PgPool, PgPoolClient, QueryResult, QueryResultRow } from './pg-types.js';

export type { QueryResult, QueryResultRow } from './pg-types.js';

export interface DatabaseOptions {
  name: string;
  config: DbConnectionConfig;
  logger: CoreLogger;
  /** Base of a relative embeddedDataDir. */
  cwd?: string;
}

interface TxState {
  client: PgPoolClient;
  savepoints: number;
  done: boolean;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** True when the configuration points somewhere: a url, a host, or the embedded database. */
export function isDbConfigured(cfg: DbConnectionConfig): boolean {
  return Boolean(cfg.url || cfg.host || cfg.embedded);
}

export class Database {
  readonly name: string;
  /** Runs on the embedded database (PGlite) rather than a server. */
  readonly embedded: boolean;
  private readonly cfg: DbConnectionConfig;
  private readonly logger: CoreLogger;
  private readonly cwd: string | undefined;
  private readonly types = new PoolTypes();
  private readonly tx = new AsyncLocalStorage<TxState>();
  private readonly primaryKeys = new Map<string, Promise<string[]>>();
  private poolPromise: Promise<pg.Pool> | undefined;
  private readyPool: pg.Pool | undefined;
  private embeddedServer: EmbeddedPostgres | undefined;
  private closed = false;

  constructor(opts: DatabaseOptions) {
    this.name = opts.name;
    this.cfg = opts.config;
    this.logger = opts.logger;
    this.cwd = opts.cwd;
    this.embedded = !opts.config.url && !opts.config.host && opts.config.embedded;
  }

  /** The pool, created (and the embedded database started) on first use. */
  pool(): Promise<PgPool> {
    if (this.closed) return Promise.reject(new UpstreamUnavailableError(`Database "${this.name}" is closed`, { upstream: 'database', database: this.name }));
    this.poolPromise ??= this.createPool().catch((err: unknown) => {
      this.poolPromise = undefined;
      throw err;
    });
    return this.poolPromise;
  }

  private async createPool(): Promise<pg.Pool> {
    // pg is an optional peer: loaded first, so a missing one starts nothing (the embedded part names it too)
    const { default: pg } = await loadOptional(this.embedded ? 'embeddedDb' : 'postgres', () => import('pg'));
    if (this.embedded && !this.embeddedServer) {
      this.embeddedServer = await startEmbeddedPostgres({
        dataDir: this.cfg.embeddedDataDir,
        ...(this.cwd ? { cwd: this.cwd } : {}),
        extensions: this.cfg.usedExtensions,
        maxConnections: EMBEDDED_MAX_POOL + 2,
      });
      this.logger.info({ database: this.name, port: this.embeddedServer.port, dataDir: this.cfg.embeddedDataDir || 'memory' }, 'embedded PostgreSQL started');
    }
    const pool = new pg.Pool(poolConfig(this.name, this.cfg, this.types.config(pg.types.getTypeParser), this.embeddedServer));
    // An idle client losing its connection must not crash the process: log it, the pool drops it.
    pool.on('error', (err) => this.logger.warn({ database: this.name, err: err.message }, 'idle database connection lost'));
    try {
      if (this.cfg.usedExtensions.length > 0) await setupExtensions(pool, this.cfg.usedExtensions, this.types);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await pool.end().catch(() => undefined);
      throw new UpstreamUnavailableError(`Database "${this.name}" is closed`, { upstream: 'database', database: this.name });
    }
    this.readyPool = pool;
    return pool;
  }

  /** Runs a parameterised statement; connection failures become UpstreamUnavailableError (-32006). */
  async query<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<QueryResult<R>> {
    const q = normalizeQuery(input, values);
    const state = this.tx.getStore();
    try {
      if (state && !state.done) return await state.client.query<R>(q.text, q.values);
      const pool = await this.pool();
      return await pool.query<R>(q.text, q.values);
    } catch (err) {
      throw toDbError(err, this.name);
    }
  }

  /** The rows. */
  async queryRs<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<R[]> {
    return (await this.query<R>(input, values)).rows;
  }

  /** The first row, or undefined. */
  async oneRow<R extends QueryResultRow = DbRecord>(input: QueryInput, values?: readonly unknown[]): Promise<R | undefined> {
    return (await this.query<R>(input, values)).rows[0];
  }

  /** The number of rows affected. */
  async exec(input: QueryInput, values?: readonly unknown[]): Promise<number> {
    return (await this.query(input, values)).rowCount ?? 0;
  }

  getInsertSql<R extends DbRecord>(args: InsertSqlArgs<R>): SqlQuery {
    return buildInsertSql(args);
  }

  /** The upsert statement; without `conflictFields` the table's primary key is the conflict target. */
  async getMergeSql<R extends DbRecord>(args: MergeSqlArgs<R>): Promise<SqlQuery> {
    const conflictFields = args.conflictFields ?? (await this.primaryKey(args.commonSchemaAndTable));
    return buildMergeSql({ ...args, conflictFields });
  }

  /** Batched upserts, one transaction per batch. */
  mergeByBatch<R extends DbRecord>(args: MergeByBatchArgs<R>): Promise<MergeByBatchResult> {
    return mergeByBatch(this, args);
  }

  /** The primary key columns of a table, in key order (looked up once per table). */
  primaryKey(table: TableRef): Promise<string[]> {
    const quoted = quoteTable(table);
    let cached = this.primaryKeys.get(quoted);
    if (!cached) {
      cached = this.queryRs<{ column: string }>(
        `SELECT a.attname AS column FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
        [quoted],
      ).then((rows) => rows.map((r) => r.column));
      cached.catch(() => this.primaryKeys.delete(quoted));
      this.primaryKeys.set(quoted, cached);
    }
    return cached;
  }

  /**
   * Runs `fn` in a transaction: COMMIT when it resolves, ROLLBACK when it throws,
   * and the client always goes back to the pool. Nested calls use savepoints.
   */
  async withTransaction<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const outer = this.tx.getStore();
    if (outer && !outer.done) return this.withSavepoint(outer, fn);
    let client: PgPoolClient;
    try {
      client = await (await this.pool()).connect();
    } catch (err) {
      throw toDbError(err, this.name);
    }
    const state: TxState = { client, savepoints: 0, done: false };
    let broken: Error | undefined;
    // The pool stops listening to a client while it is checked out; a connection lost
    // now would be an unhandled 'error' event (a crash) without this listener.
    const onClientError = (err: Error) => {
      broken = err;
    };
    client.on('error', onClientError);
    try {
      await client.query('BEGIN');
      const result = await this.tx.run(state, () => fn(this));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackErr) {
        // A client that cannot roll back is destroyed rather than reused.
        broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
      }
      throw toDbError(err, this.name);
    } finally {
      state.done = true;
      // A broken client keeps a listener: it is destroyed and may still report its end.
      if (!broken) client.off('error', onClientError);
      client.release(broken);
    }
  }

  private async withSavepoint<T>(state: TxState, fn: (db: Database) => Promise<T>): Promise<T> {
    const name = `fa_sp_${++state.savepoints}`;
    await this.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      await this.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await this.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
  }

  /** `ALTER TABLE … ADD COLUMN IF NOT EXISTS <column> vector(<dimensions>)`. */
  async addVectorColumn(args: VectorColumnArgs): Promise<void> {
    await this.query(addVectorColumnSql(args));
  }

  /** `CREATE INDEX IF NOT EXISTS … USING hnsw|ivfflat (<column> <ops>)`. */
  async createVectorIndex(args: VectorIndexArgs): Promise<void> {
    await this.query(createVectorIndexSql(args));
  }

  /** The rows nearest to `vector`, each with its `distance`, closest first. */
  async searchNearest<R extends QueryResultRow = DbRecord>(args: NearestArgs): Promise<Array<R & { distance: number }>> {
    return this.queryRs<R & { distance: number }>(nearestSql(args));
  }

  /** Readiness: one round trip. */
  async check(): Promise<void> {
    await this.query('SELECT 1');
  }

  /** Connections of the pool (all zero before the first query). */
  poolStats(): PoolStats {
    const pool = this.readyPool;
    return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 };
  }

  /** Ends the pool and stops the embedded database; later calls fail as unavailable. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pending = this.poolPromise;
    this.poolPromise = undefined;
    const pool = pending ? await pending.catch(() => undefined) : undefined;
    await pool?.end().catch((err: unknown) => this.logger.warn({ database: this.name, err }, 'error while closing the pool'));
    await this.embeddedServer?.stop().catch((err: unknown) => this.logger.warn({ database: this.name, err }, 'error while stopping the embedded database'));
  }
}

