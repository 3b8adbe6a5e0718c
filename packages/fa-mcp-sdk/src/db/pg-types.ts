/**
 * The `pg` shapes the public API names, declared here so the published types
 * need no `@types/pg` (issue 24): a query result, a row, a pool and its client,
 * the options of a `pg.Client`. Each is a structural subset of its `pg`
 * counterpart: a real `pg.Pool`, `pg.PoolClient`, `pg.QueryResult` or
 * `pg.ClientConfig` is assignable to it (test/package/consumer/interop.ts proves it against
 * the real typings).
 */

/** A result row: column name to value, as `pg` types it. */
export interface QueryResultRow {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same index type as pg's, so pg's rows and a consumer's row interfaces are interchangeable with it
  [column: string]: any;
}

/** One column of a result. */
export interface FieldDef {
  name: string;
  tableID: number;
  columnID: number;
  dataTypeID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: string;
}

/** What a query answers: its rows, the command, the affected row count and the columns. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's default row type, kept for drop-in compatibility
export interface QueryResult<R extends QueryResultRow = any> {
  command: string;
  rowCount: number | null;
  oid: number;
  fields: FieldDef[];
  rows: R[];
}

/** Anything that runs a parameterized query: a pool or one of its clients. */
export interface PgQueryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's default row type, kept for drop-in compatibility
  query<R extends QueryResultRow = any>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** A client checked out of a pool; `release()` gives it back. */
export interface PgPoolClient extends PgQueryable {
  release(err?: Error | boolean): void;
  on(event: 'error', listener: (err: Error) => void): this;
  off(event: 'error', listener: (err: Error) => void): this;
}

/** A `pg.Pool`, as far as the stores, migrations and helpers use it. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** The connection options of a `pg.Client` (a subset of `pg.ClientConfig`). */
export interface PgClientConfig {
  connectionString?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  user?: string | undefined;
  database?: string | undefined;
  password?: string | (() => string | Promise<string>) | undefined;
  ssl?: unknown;
  application_name?: string | undefined;
  connectionTimeoutMillis?: number | undefined;
  statement_timeout?: false | number | undefined;
}
