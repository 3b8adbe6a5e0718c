/**
 * The ambient databases of the free helpers (queryMAIN, queryDB …): an
 * AsyncLocalStorage scope, entered by a pipeline step around every request and
 * by `Databases.run(fn)`. The storage object is stateless; what it holds lives
 * in the async context of one request, so two servers in one process never see
 * each other's databases and no server is ever assigned to a global.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InternalError } from '../core/errors.js';
import type { PipelineStep } from '../core/pipeline.js';
import type { Databases } from './databases.js';

/**
 * One storage per process even when the package is loaded twice (its ESM and CJS
 * builds, or the `fa-mcp-sdk` and `fa-mcp-sdk/db` entry points, each bundle their
 * own copy of this module): a scope entered by one copy must be visible to the other.
 */
const SCOPE_KEY = Symbol.for('fa-mcp-sdk.db-scope');
const registry = globalThis as typeof globalThis & { [SCOPE_KEY]?: AsyncLocalStorage<Databases> };
const scope = (registry[SCOPE_KEY] ??= new AsyncLocalStorage<Databases>());

export function runWithDatabases<T>(databases: Databases, fn: () => T): T {
  return scope.run(databases, fn);
}

/** The databases of the current request; throws outside one. */
export function currentDatabases(): Databases {
  const databases = scope.getStore();
  if (!databases) {
    throw new InternalError(
      'No database scope: the *MAIN/*DB helpers work inside tool handlers and pipeline steps of a server with databases configured (db.postgres.dbs.<name>) and db.ambientScope left true; elsewhere use handle.db, or handle.db.run(fn)',
    );
  }
  return databases;
}

/** The pipeline step that makes `databases` ambient for everything after it, the tool handler included. */
export function databaseScopeStep(databases: Databases): PipelineStep {
  return {
    name: 'database-scope',
    run: (_op, next) => scope.run(databases, next),
  };
}
