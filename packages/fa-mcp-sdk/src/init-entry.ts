/**
 * The public `initMcpServer`: loads the server (transports, protocol adapters, express, the MCP
 * SDK…) on the first call, so `import('fa-mcp-sdk')` stays cheap for code that only uses the
 * types, results and helpers (issue 24: import time). The implementation is init-mcp-server.ts.
 */
import type { InitOptions, McpServerData, McpServerHandle } from './init-mcp-server.js';

/**
 * Loads configuration, builds the core once, starts the configured transport (stdio or HTTP),
 * and resolves with a handle that stops it gracefully.
 */
export async function initMcpServer(data: McpServerData, options: InitOptions = {}): Promise<McpServerHandle> {
  const { initMcpServer: start } = await import('./init-mcp-server.js');
  return start(data, options);
}
