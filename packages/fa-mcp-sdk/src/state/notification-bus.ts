/**
 * Cross-instance signals (task cancelled, task status changed, resource
 * updated, list changed). In memory for one instance; over PostgreSQL
 * LISTEN/NOTIFY when several share a database.
 */
export type BusListener = (payload: Record<string, unknown>) => void;

export interface INotificationBus {
  publish(channel: string, payload: Record<string, unknown>): Promise<void>;
  /** Returns an idempotent unsubscribe function. */
  subscribe(channel: string, listener: BusListener): () => void;
  close(): Promise<void>;
}

/** Delivers to local listeners; a throwing listener does not stop the others. */
export class LocalListeners {
  private readonly byChannel = new Map<string, Set<BusListener>>();

  add(channel: string, listener: BusListener): () => void {
    let set = this.byChannel.get(channel);
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    set.add(listener);
    return () => {
      set?.delete(listener);
      if (set?.size === 0) this.byChannel.delete(channel);
    };
  }

  deliver(channel: string, payload: Record<string, unknown>): void {
    for (const l of [...(this.byChannel.get(channel) ?? [])]) {
      try {
        l(payload);
      } catch {
        // one listener's failure is its own
      }
    }
  }

  clear(): void {
    this.byChannel.clear();
  }
}

export class InMemoryNotificationBus implements INotificationBus {
  private readonly listeners = new LocalListeners();

  async publish(channel: string, payload: Record<string, unknown>): Promise<void> {
    // asynchronous like the shared bus, so callers never depend on re-entrancy
    queueMicrotask(() => this.listeners.deliver(channel, payload));
  }

  subscribe(channel: string, listener: BusListener): () => void {
    return this.listeners.add(channel, listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
