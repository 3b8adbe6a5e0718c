/**
 * Lets notifications leave before the response that follows them. The SDK
 * clients (v1 and v2) handle a notification a microtask later than a response
 * read in the same chunk, so a progress notification written right before the
 * result is dropped once the call has settled. A response that follows a
 * notification therefore waits until that write was handed on and one event
 * loop turn passed, so the two leave in separate writes. It cannot force
 * separate reads: a client that reads late still gets both in one chunk.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

export interface NotificationGap {
  /** Sends `message` with `send`, a response only after the notifications written before it. */
  send(message: JSONRPCMessage, send: () => Promise<void>): Promise<void>;
}

const isResponse = (m: JSONRPCMessage): boolean => 'id' in m && ('result' in m || 'error' in m);
const isNotification = (m: JSONRPCMessage): boolean => !('id' in m) && 'method' in m;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createNotificationGap(): NotificationGap {
  let pending: Promise<void> | undefined;
  return {
    async send(message, send) {
      if (pending && isResponse(message)) {
        const wait = pending;
        pending = undefined;
        await wait;
      }
      const sent = send();
      if (isNotification(message)) pending = sent.then(nextTurn, nextTurn);
      return sent;
    },
  };
}
