/** The lines start.ts prints: where the server listens, or how a client launches it on stdio. */
import type { McpServerHandle } from 'fa-mcp-sdk';

export function listeningBanner(handle: McpServerHandle): string | undefined {
  if (!handle.url) return undefined;
  const mcp = new URL(handle.url);
  if (mcp.hostname === '0.0.0.0' || mcp.hostname === '[::]') mcp.hostname = '127.0.0.1';
  const at = (path: string) => new URL(path, mcp).toString();
  return [
    '',
    'fa-mcp-everything is listening.',
    `  MCP endpoint (Streamable HTTP, both revisions): ${mcp.toString()}`,
    ...(handle.config.mcp.legacySse ? [`  Legacy HTTP+SSE endpoint (2025-era):           ${at('/sse')}`] : []),
    `  Health:                                        ${at('/health')}`,
    `  Inspector: npx @modelcontextprotocol/inspector --cli ${mcp.toString()} --transport http --method tools/list`,
    '',
  ].join('\n');
}

export function stdioBanner(startScript: string): string {
  const config = { mcpServers: { everything: { command: process.execPath, args: [startScript], env: { MCP_TRANSPORT_TYPE: 'stdio' } } } };
  return `\nfa-mcp-everything serves MCP over stdio (this note is on stderr). A client launches it:\n${JSON.stringify(config, null, 2)}\n`;
}
