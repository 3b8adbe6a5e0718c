/**
 * What the stdio transport takes from the official SDK: its stdio server transport and the
 * serve loop around it. A module of its own because `@modelcontextprotocol/server/stdio` is a
 * subpath the HTTP side never needs, and the stdio cold front loads it only when the first
 * message it cannot answer itself arrives (transport/stdio.ts).
 */
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
