/**
 * The ambient databases of the free helpers (queryMAIN, queryDB …): an
 * AsyncLocalStorage scope, entered by a pipeline step around every request and
 * by `Databases.run(fn)` (the storage sits in databases.ts, beside `run`, so the two
 * modules do not import each other). The storage object is stateless; what it holds lives
 * in the async context of one request, so two servers in one process never see
 * each other's databases and no server is ever assigned to a global.
 */
import { InternalError } from '../core/errors.js';
import type { PipelineStep } from '../core/pipeline.js';
import { ambientDatabases as scope, type Databases } from './databases.js';

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
