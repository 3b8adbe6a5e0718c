/**
 * The message shapes the transports share with the SDK, and the SDK's own
 * reading of one message (transport/ names no SDK class: the classes are made
 * in protocol/, see http-entry.ts and stdio-connection.ts). Every import of
 * the SDK stays in protocol/ (ARCHITECTURE.md); scripts/lint/rooms.mjs holds it.
 */
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';

export type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/server';

/** Whether `value` is one JSON-RPC message by the SDK's own schema (what its stdio transport accepts). */
export function isJsonRpcMessage(value: unknown): boolean {
  try {
    parseJSONRPCMessage(value);
    return true;
  } catch {
    return false;
  }
}
