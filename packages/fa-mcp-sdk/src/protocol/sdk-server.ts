/**
 * What the transports take from the official SDK's server side: its Streamable HTTP handler and
 * session transport, the era check of a request, and the message and transport shapes. Every
 * import of the SDK stays in protocol/ (ARCHITECTURE.md), so an SDK change touches one folder;
 * scripts/lint/rooms.mjs holds it.
 */
export { createMcpHandler, InMemoryServerEventBus, isLegacyRequest, parseJSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
export type { AuthInfo as SdkAuthInfo, JSONRPCMessage, McpHttpHandler, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
