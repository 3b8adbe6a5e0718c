/**
 * The requests a stdio connection has read and not answered yet: what a stop
 * waits for (the stopper's in-flight count, within `webServer.shutdownGraceMs`),
 * and what it answers with a JSON-RPC error when the grace is over, so that
 * every request the server read gets an answer (stdio-sdk.ts).
 *
 * A request counts from the moment its line is handed to the SDK (the line
 * guard) until its answer is written, or until the client cancels it (the SDK
 * does not answer a cancelled request). `subscriptions/listen` (2026-07-28)
 * is a stream, not a call: it is left out, and its subscriptions are ended
 * with the connection, as HTTP streams are.
 */
import type { Writable } from 'node:stream';
import { MCP_ERROR_CODES } from '../core/errors.js';

type Id = string | number;

export interface StdioRequests {
  /** A message handed to the SDK. */
  read(message: unknown): void;
  /** A message the server wrote (after it was written). */
  written(message: object): void;
  /** Requests read and not answered. */
  readonly count: number;
  /** Answers every open request with a JSON-RPC error (the server stops before they finished); returns how many. */
  abandon(output: Writable): number;
}

/** Streams, not calls: open until the connection ends. */
const STREAMS: ReadonlySet<string> = new Set(['subscriptions/listen']);

const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

const keyOf = (id: Id): string => `${typeof id}:${String(id)}`;

export function createStdioRequests(): StdioRequests {
  /** Open requests by id (a client may reuse an id: each read counts). */
  const open = new Map<string, { id: Id; count: number }>();
  let total = 0;

  const settle = (id: Id) => {
    const key = keyOf(id);
    const entry = open.get(key);
    if (!entry) return;
    total--;
    if (--entry.count === 0) open.delete(key);
  };

  return {
    read(message) {
      if (typeof message !== 'object' || message === null) return;
      const { id, method, params } = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
      if (typeof method !== 'string') return; // a response to a request of the server
      if (id === undefined) {
        if (method === 'notifications/cancelled' && isId(params?.requestId)) settle(params.requestId);
        return;
      }
      if (!isId(id) || STREAMS.has(method)) return;
      const key = keyOf(id);
      const entry = open.get(key);
      if (entry) entry.count++;
      else open.set(key, { id, count: 1 });
      total++;
    },
    written(message) {
      const { id } = message as { id?: unknown };
      if ('method' in message || !isId(id)) return;
      settle(id);
    },
    get count() {
      return total;
    },
    abandon(output) {
      const abandoned = total;
      for (const { id, count } of open.values()) {
        for (let i = 0; i < count; i++) {
          if (output.writableEnded || output.destroyed) break;
          const error = { code: MCP_ERROR_CODES.INTERNAL_ERROR, message: 'The server stopped before the request finished' };
          output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
        }
      }
      open.clear();
      total = 0;
      return abandoned;
    },
  };
}
