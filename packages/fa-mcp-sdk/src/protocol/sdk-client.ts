/**
 * The official SDK's client side, for the rooms that act as an MCP client
 * (testing/, agent-tester/, cli/): every import of the SDK stays in
 * protocol/ (ARCHITECTURE.md), so an SDK change touches one folder. The
 * stdio client, which spawns processes, is sdk-client-stdio.ts.
 */
export { Client, ReadBuffer, serializeMessage, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export type { ClientOptions, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
