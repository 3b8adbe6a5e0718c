/** `pnpm start`: runs the pgvector-search server (HOST, PORT and DB_MAIN_* from the environment). */
import { createSearchServer } from './server.js';

try {
  const server = await createSearchServer();
  server.logger.info({ url: server.url, database: server.db.main.embedded ? 'embedded' : 'server' }, `pgvector-search ready: MCP endpoint ${server.url}`);
} catch (err) {
  console.error(`fa-mcp-pgvector-search could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
