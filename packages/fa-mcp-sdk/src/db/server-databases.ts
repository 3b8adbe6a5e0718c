/**
 * The one call initMcpServer makes: build the server's databases from the
 * configuration and make them ambient for every request (unless
 * `db.ambientScope` is false), by a pipeline step
 * placed first so consumer steps and tool handlers all run inside it. The
 * databases may be built earlier (before the core, for stores that need a pool
 * at start) and passed in.
 */
import type { DbSectionConfig } from '../config/sections/db.js';
import type { CoreLogger } from '../core/core.js';
import type { Pipeline } from '../core/pipeline.js';
import { Databases } from './databases.js';
import { databaseScopeStep } from './db-scope.js';

export function createServerDatabases(
  opts: { pipeline: Pipeline; ambientScope: boolean } & ({ databases: Databases } | { config: Pick<DbSectionConfig, 'postgres'> | undefined; logger: CoreLogger; cwd: string }),
): Databases {
  const databases = 'databases' in opts ? opts.databases : new Databases({ config: opts.config, logger: opts.logger, cwd: opts.cwd });
  const first = opts.pipeline.names()[0];
  // An AsyncLocalStorage scope entered on every request slows every promise of the process (async
  // hooks, Node 20 and 22), so none is entered without databases, or when `db.ambientScope` is false.
  if (opts.ambientScope && databases.names().length > 0) opts.pipeline.use(databaseScopeStep(databases), first ? { before: first } : {});
  return databases;
}
