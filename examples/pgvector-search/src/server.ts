/**
 * The pgvector-search server: two tools over the main database. With the
 * shipped configuration that database is the embedded PostgreSQL, so the
 * example runs with nothing installed; DB_MAIN_URL points it at a real server.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from 'fa-mcp-sdk';
import { ensureSchema } from './schema.js';
import { searchDocumentsTool } from './tools/search-documents.js';
import { storeDocumentTool } from './tools/store-document.js';

/** The package folder (holds config/ and package.json), from src/ or dist/ alike. */
export const EXAMPLE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const searchServerData: McpServerData = {
  serverInfo: { title: 'pgvector search', description: 'Stores documents with embeddings and finds the nearest ones (pgvector).' },
  instructions: 'store_document: save a text (and optionally its embedding). search_documents: find the closest stored texts.',
  tools: [storeDocumentTool, searchDocumentsTool],
};

export type SearchServerOptions = Pick<InitOptions, 'config' | 'handleSignals' | 'logDestination' | 'env' | 'nodeEnv'>;

export async function createSearchServer(options: SearchServerOptions = {}): Promise<McpServerHandle> {
  const server = await initMcpServer(searchServerData, { cwd: EXAMPLE_ROOT, ...options });
  try {
    // First use of the database: starts the embedded one when configured, then creates the table.
    await ensureSchema(server.db.main);
  } catch (err) {
    await server.stop('schema setup failed');
    throw err;
  }
  return server;
}
