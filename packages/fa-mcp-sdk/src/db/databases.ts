/**
 * The databases of one server, by name, built from `db.postgres.dbs` by
 * initMcpServer and reachable as `handle.db`. Nothing connects until a database
 * is first used; `close()` ends every pool on shutdown.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DbSectionConfig } from '../config/sections/db.js';
import type { CoreLogger } from '../core/core.js';
import { InternalError } from '../core/errors.js';
import type { ReadinessCheck } from '../core/readiness-check.js';
import { Database, isDbConfigured } from './database.js';

export const MAIN_DB = 'main';

/**
 * Where the ambient databases of the free helpers live (read by db-scope.ts, entered by
 * `run()`). One storage per process even when the package is loaded twice (its ESM and CJS
 * builds, or the `fa-mcp-sdk` and `fa-mcp-sdk/db` entry points, each bundle their own copy of
 * this module): a scope entered by one copy must be visible to the other. The storage object is
 * stateless; what it holds lives in the async context of one request.
 */
const SCOPE_KEY = Symbol.for('fa-mcp-sdk.db-scope');
const registry = globalThis as typeof globalThis & { [SCOPE_KEY]?: AsyncLocalStorage<Databases> };
export const ambientDatabases = (registry[SCOPE_KEY] ??= new AsyncLocalStorage<Databases>());

export interface DatabasesOptions {
  /** The `db` section (only `postgres` is read here; `ambientScope` is the server's). */
  config: Pick<DbSectionConfig, 'postgres'> | undefined;
  logger: CoreLogger;
  /** Base of relative embedded data folders. */
  cwd?: string;
}

export class Databases {
  private readonly byName = new Map<string, Database>();

  constructor(opts: DatabasesOptions) {
    for (const [name, cfg] of Object.entries(opts.config?.postgres.dbs ?? {})) {
      if (!cfg || !isDbConfigured(cfg)) continue;
      this.byName.set(name, new Database({ name, config: cfg, logger: opts.logger, ...(opts.cwd ? { cwd: opts.cwd } : {}) }));
    }
  }

  /** Names of the configured databases. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** A configured database; throws when `db.postgres.dbs.<name>` has no url, host or `embedded: true`. */
  get(name: string): Database {
    const db = this.byName.get(name);
    if (!db) throw new InternalError(`Database "${name}" is not configured (set db.postgres.dbs.${name}.url, .host, or .embedded)`);
    return db;
  }

  get main(): Database {
    return this.get(MAIN_DB);
  }

  /**
   * Runs `fn` with these databases as the ambient ones of the *MAIN and *DB free
   * functions (tool handlers already run inside; use this in startup code or jobs).
   */
  run<T>(fn: () => T): T {
    return ambientDatabases.run(this, fn);
  }

  /** One readiness check per configured database: `database` for main, `database:<name>` for others. */
  readinessChecks(): ReadinessCheck[] {
    return [...this.byName.values()].map((db) => ({
      name: db.name === MAIN_DB ? 'database' : `database:${db.name}`,
      // The first check of an embedded database also starts it, which takes a few seconds.
      timeoutMs: db.embedded ? 30_000 : 5_000,
      check: () => db.check(),
    }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.byName.values()].map((db) => db.close()));
  }
}
