/** What a user needs to connect to a running demo server, printed by start.ts. */
import type { McpServerHandle } from 'fa-mcp-sdk';

export interface ConnectionInfo {
  mcpUrl: string;
  /** Legacy HTTP+SSE endpoint, when mcp.legacySse is on. */
  sseUrl?: string;
  healthUrl: string;
  readyUrl: string;
  inspectorCommand: string;
  clientConfig: { mcpServers: Record<string, { url: string }> };
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '[::]']);

/** How to reach the HTTP endpoints, or undefined when the server has none (stdio transport). */
export function connectionInfo(handle: McpServerHandle, serverName = 'fa-mcp-demo'): ConnectionInfo | undefined {
  if (!handle.url) return undefined;
  const mcp = new URL(handle.url);
  // A server bound to every interface is reached locally through the loopback address.
  if (WILDCARD_HOSTS.has(mcp.hostname)) mcp.hostname = '127.0.0.1';
  const at = (path: string) => new URL(path, mcp).toString();
  const mcpUrl = mcp.toString();
  const info: ConnectionInfo = {
    mcpUrl,
    healthUrl: at('/health'),
    readyUrl: at('/ready'),
    inspectorCommand: `npx @modelcontextprotocol/inspector --cli ${mcpUrl} --transport http --method tools/list`,
    clientConfig: { mcpServers: { [serverName]: { url: mcpUrl } } },
  };
  if (handle.config.mcp.legacySse) info.sseUrl = at('/sse');
  return info;
}

export function formatConnectionInfo(info: ConnectionInfo): string {
  const lines = [
    '',
    'fa-mcp-demo is listening.',
    '',
    `  MCP endpoint (Streamable HTTP): ${info.mcpUrl}`,
    ...(info.sseUrl ? [`  Legacy HTTP+SSE endpoint:       ${info.sseUrl}`] : []),
    `  Liveness:                       ${info.healthUrl}`,
    `  Readiness:                      ${info.readyUrl}`,
    '',
    'List the tools with the MCP Inspector (CLI mode):',
    `  ${info.inspectorCommand}`,
    '',
    'Or open the Inspector UI (`npx @modelcontextprotocol/inspector`), pick "Streamable HTTP" and enter the MCP endpoint.',
    '',
    'Client configuration (mcp.json / claude_desktop_config.json style):',
    JSON.stringify(info.clientConfig, null, 2)
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
    '',
    'Stop with Ctrl+C (SIGINT) or SIGTERM.',
    '',
  ];
  return lines.join('\n');
}

/**
 * The banner of a server on stdio. stdout carries JSON-RPC only, so this goes
 * to stderr; it names the command a client launches, not endpoints that do not exist.
 */
export function formatStdioInfo(startScript: string, serverName = 'fa-mcp-demo'): string {
  const config = { mcpServers: { [serverName]: { command: process.execPath, args: [startScript], env: { MCP_TRANSPORT_TYPE: 'stdio' } } } };
  return [
    '',
    `${serverName} serves MCP over stdio (stdin/stdout carry JSON-RPC; this note is on stderr).`,
    '',
    'A client launches it itself, e.g. (mcp.json / claude_desktop_config.json style):',
    JSON.stringify(config, null, 2)
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
    '',
    'Or with the MCP Inspector (CLI mode):',
    `  npx @modelcontextprotocol/inspector --cli -e MCP_TRANSPORT_TYPE=stdio ${process.execPath} ${startScript} --method tools/list`,
    '',
  ].join('\n');
}
