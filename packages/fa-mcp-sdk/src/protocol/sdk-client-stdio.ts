/** The official SDK's stdio client (it spawns the server process): see sdk-client.ts. */
export { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
