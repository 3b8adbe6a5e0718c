/**
 * The replay of a 2025-era handshake into an SDK server instance that did not
 * answer it: a session restored on another instance (transport/http/session-open.ts),
 * or a stdio connection whose first answers the cold front gave
 * (transport/stdio.ts). The SDK learns the client's capabilities, info and
 * protocol version from the stored `initialize`; its answer goes nowhere (the
 * client had its answer already). The messages carry a mark the wire tap reads,
 * so they are not observed as requests of the client (wire-tap.ts).
 */
import { randomUUID } from 'node:crypto';

/** The id prefix of a replayed initialize: no client's id, so its answer is known and dropped. */
export const REPLAY_ID_PREFIX = 'fa-mcp-restore-';

const REPLAYED = Symbol('fa-mcp.replayed');

export interface HandshakeReplay {
  initialize: { jsonrpc: '2.0'; id: string; method: 'initialize'; params: Record<string, unknown> };
  initialized: { jsonrpc: '2.0'; method: 'notifications/initialized' };
}

/** The two messages of a replayed handshake, marked (the mark is a symbol: it never reaches the wire). */
export function handshakeReplay(initializeParams: Record<string, unknown>): HandshakeReplay {
  const initialize = { jsonrpc: '2.0' as const, id: `${REPLAY_ID_PREFIX}${randomUUID()}`, method: 'initialize' as const, params: initializeParams };
  const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' as const };
  for (const message of [initialize, initialized]) Object.defineProperty(message, REPLAYED, { value: true });
  return { initialize, initialized };
}

/** A message of a replayed handshake (the same object, handed on as it is). */
export function isReplayed(message: object): boolean {
  return (message as Record<symbol, unknown>)[REPLAYED] === true;
}

/** The SDK's answer to a replayed initialize. */
export function isReplayAnswer(message: object): boolean {
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' && id.startsWith(REPLAY_ID_PREFIX) && !('method' in message);
}
