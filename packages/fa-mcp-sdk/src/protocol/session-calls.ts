/**
 * The calls of one 2025-era session that the session fast path serves
 * (session-fast-call.ts), by JSON-RPC id. The session's server instance still
 * makes everything that goes back to the client during such a call (progress,
 * logs, requests to the client), related to the call's id; its transport has
 * no stream for that id (it never saw the request), so what it is asked to
 * send for a fast-served call is handed to the call's own exchange instead.
 * Cancellations (`notifications/cancelled`) and the session's end reach the
 * calls here too.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { WireFilter } from './wire-adapter.js';

export interface SessionCallTarget {
  /** A message related to the call, made by the SDK (notifications, requests to the client). */
  deliver(message: JSONRPCMessage): Promise<void>;
  /** Cancelled by the client (its reason) or ended with the session. */
  abort(reason: unknown): void;
}

export class SessionCalls {
  /** Made on the first call served here: a session that never has one holds none. */
  private live: Map<string | number, SessionCallTarget> | undefined;

  /** Registers a call being served; returns the function that unregisters it. */
  begin(id: string | number, target: SessionCallTarget): () => void {
    const live = (this.live ??= new Map());
    live.set(id, target);
    return () => {
      if (live.get(id) === target) live.delete(id);
    };
  }

  get size(): number {
    return this.live?.size ?? 0;
  }

  /** The client cancelled request `id`: true when it was a call served here (aborted with the client's reason). */
  cancel(id: unknown, reason: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const target = this.live?.get(id);
    if (!target) return false;
    target.abort(reason);
    return true;
  }

  /** The session ended: every call is aborted, as the SDK aborts its own handlers then. */
  abortAll(reason: unknown): void {
    if (!this.live) return;
    const targets = [...this.live.values()];
    this.live.clear();
    for (const target of targets) target.abort(reason);
  }

  /**
   * The filter of the session's wire adapter (wire-adapter.ts) that hands over
   * what is sent for calls served here, after it is observed.
   */
  readonly filter: WireFilter = {
    outbound: (message, options, next) => {
      const related = options?.relatedRequestId;
      const target = related === undefined ? undefined : this.live?.get(related);
      return target ? target.deliver(message) : next(message, options);
    },
  };

  /** Cancellations among the messages of a POST (a single message or a batch), passed to the calls they name. */
  cancelFrom(body: unknown): void {
    if (!this.live?.size) return;
    for (const message of Array.isArray(body) ? body : [body]) {
      const m = message as { method?: unknown; params?: { requestId?: unknown; reason?: unknown } } | null;
      if (m && typeof m === 'object' && m.method === 'notifications/cancelled' && !('id' in m)) this.cancel(m.params?.requestId, m.params?.reason);
    }
  }
}
