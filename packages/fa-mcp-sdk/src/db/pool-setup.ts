/**
 * What a pool needs before its first query: its `pg` settings from the
 * configuration, the extensions listed in `usedExtensions` (created if
 * missing), and the type parsers of those extensions (pgvector). `pg` itself is
 * loaded by the caller on first use, so a server without a database never loads it.
 */
import type pg from 'pg';
import type { DbConnectionConfig } from '../config/sections/db.js';
import type { EmbeddedPostgres } from './embedded-postgres.js';
import { quoteIdent } from './identifiers.js';
import { fromVectorSql } from './pgvector.js';

/** PGlite runs one statement at a time; more connections only queue. */
export const EMBEDDED_MAX_POOL = 4;

/** Type parsers a pool's clients consult before the defaults of `pg`. */
export class PoolTypes {
  private readonly parsers = new Map<number, (text: string) => unknown>();

  set(oid: number, parser: (text: string) => unknown): void {
    this.parsers.set(oid, parser);
  }

  /** The `types` option of a pg pool; `fallback` is `pg.types.getTypeParser`. */
  config(fallback: pg.CustomTypesConfig['getTypeParser']): pg.CustomTypesConfig {
    const lookup = (oid: number, format?: string) => this.parsers.get(oid) ?? fallback(oid, format as 'text');
    // pg types getTypeParser as an overload set; the lookup above implements all of it.
    return { getTypeParser: lookup as pg.CustomTypesConfig['getTypeParser'] };
  }
}

export function poolConfig(name: string, cfg: DbConnectionConfig, types: pg.CustomTypesConfig, embedded?: EmbeddedPostgres): pg.PoolConfig {
  const base: pg.PoolConfig = {
    max: embedded ? Math.min(cfg.poolSize, EMBEDDED_MAX_POOL) : cfg.poolSize,
    connectionTimeoutMillis: cfg.connectionTimeoutMs,
    idleTimeoutMillis: cfg.idleTimeoutMs,
    keepAlive: true,
    application_name: `fa-mcp-sdk:${name}`.slice(0, 63),
    types,
  };
  if (embedded) return { ...base, host: embedded.host, port: embedded.port, user: embedded.user, database: embedded.database };
  const connection: pg.PoolConfig = cfg.url
    ? { connectionString: cfg.url }
    : {
        host: cfg.host,
        port: cfg.port,
        ...(cfg.user ? { user: cfg.user } : {}),
        ...(cfg.password ? { password: cfg.password } : {}),
        ...(cfg.database ? { database: cfg.database } : {}),
      };
  return {
    ...base,
    ...connection,
    ...(cfg.statementTimeoutMs > 0 ? { statement_timeout: cfg.statementTimeoutMs } : {}),
    ...(cfg.ssl ? { ssl: { rejectUnauthorized: cfg.sslRejectUnauthorized } } : {}),
  };
}

/** Creates the listed extensions if missing and registers the types they bring. */
export async function setupExtensions(pool: pg.Pool, extensions: readonly string[], types: PoolTypes): Promise<void> {
  for (const name of extensions) {
    try {
      await pool.query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(name, 'extension')}`);
    } catch (err) {
      // Two instances creating the same extension at once: the loser sees a unique violation.
      if ((err as { code?: string }).code !== '23505') throw err;
    }
  }
  if (!extensions.includes('vector')) return;
  const { rows } = await pool.query<{ typname: string; oid: number }>(
    "SELECT t.typname, t.oid::int AS oid FROM pg_type t JOIN pg_extension e ON e.extname = 'vector' JOIN pg_depend d ON d.objid = t.oid AND d.refobjid = e.oid WHERE t.typname IN ('vector', 'halfvec')",
  );
  for (const row of rows) types.set(row.oid, fromVectorSql);
}
