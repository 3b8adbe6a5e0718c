/**
 * The one call initMcpServer makes: build the server's databases from the
 * configuration and make them ambient for every request, by a pipeline step
 * placed first so consumer steps and tool handlers all run inside it.
 */
import type { DbSectionConfig } from '../config/sections/db.js';
import type { CoreLogger } from '../core/core.js';
import type { Pipeline } from '../core/pipeline.js';
import { Databases } from './databases.js';
import { databaseScopeStep } from './db-scope.js';

export function createServerDatabases(opts: { pipeline: Pipeline; config: DbSectionConfig | undefined; logger: CoreLogger; cwd: string }): Databases {
  const databases = new Databases({ config: opts.config, logger: opts.logger, cwd: opts.cwd });
  const first = opts.pipeline.names()[0];
  opts.pipeline.use(databaseScopeStep(databases), first ? { before: first } : {});
  return databases;
}
