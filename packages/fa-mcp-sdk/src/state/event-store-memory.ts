/**
 * Resumability events for 2025-era SSE streams, in memory: each stream keeps its
 * last `maxEventsPerStream` messages for `retentionMs`, so a client reconnecting
 * with Last-Event-ID gets what it missed. Bounded per stream, in the number of
 * streams, and in age.
 */

export interface JsonRpcMessageLike {
  jsonrpc: '2.0';
  [key: string]: unknown;
}

/**
 * The SDK's resumability store (the first three methods), plus the upkeep the
 * framework calls when present: `sweep` on a timer, `dropStreamsOf` when a
 * session ends (every stream of a session shares its prefix), `close` on stop.
 */
export interface IEventStore {
  storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string>;
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /** Sends the events of the stream after `lastEventId`, oldest first; rejects for an unknown or expired id. */
  replayEventsAfter(lastEventId: string, opts: { send: (eventId: string, message: JsonRpcMessageLike) => Promise<void> }): Promise<string>;
  /** Deletes events older than the retention; returns how many. */
  sweep?(now?: number): Promise<number>;
  /** Forgets every stream whose id starts with `prefix`; returns how many events went. */
  dropStreamsOf?(prefix: string): Promise<number>;
  close?(): Promise<void>;
}

export interface InMemoryEventStoreOptions {
  /** Events kept per stream (default 1000); the oldest go first. */
  maxEventsPerStream?: number;
  /** Streams kept (default 10,000); the oldest stream goes first. */
  maxStreams?: number;
  /** Age after which an event is not replayed and is swept (default 30 minutes). */
  retentionMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface StoredEvent {
  id: string;
  at: number;
  message: JsonRpcMessageLike;
}

export const UNKNOWN_EVENT_ID = 'Unknown or expired Last-Event-ID';

export class InMemoryEventStore implements IEventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly index = new Map<string, string>();
  private readonly maxEvents: number;
  private readonly maxStreams: number;
  private readonly retentionMs: number;
  private readonly now: () => number;

  constructor(opts: InMemoryEventStoreOptions = {}) {
    this.maxEvents = opts.maxEventsPerStream ?? 1000;
    this.maxStreams = opts.maxStreams ?? 10_000;
    this.retentionMs = opts.retentionMs ?? 1_800_000;
    this.now = opts.now ?? Date.now;
  }

  async storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string> {
    let events = this.streams.get(streamId);
    if (!events) {
      if (this.streams.size >= this.maxStreams) this.dropOldestStream();
      events = [];
      this.streams.set(streamId, events);
    }
    const id = crypto.randomUUID();
    events.push({ id, at: this.now(), message });
    this.index.set(id, streamId);
    while (events.length > this.maxEvents) {
      const dropped = events.shift();
      if (dropped) this.index.delete(dropped.id);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JsonRpcMessageLike) => Promise<void> }): Promise<string> {
    const found = this.find(lastEventId);
    if (!found) throw new Error(UNKNOWN_EVENT_ID);
    // a copy: sending may await while new events arrive or old ones are trimmed
    for (const e of found.events.slice(found.at + 1)) await send(e.id, e.message);
    return found.streamId;
  }

  async sweep(now = this.now()): Promise<number> {
    const cutoff = now - this.retentionMs;
    let removed = 0;
    for (const [streamId, events] of this.streams) {
      while (events.length > 0 && (events[0] as StoredEvent).at <= cutoff) {
        this.index.delete((events.shift() as StoredEvent).id);
        removed++;
      }
      if (events.length === 0) this.streams.delete(streamId);
    }
    return removed;
  }

  async dropStreamsOf(prefix: string): Promise<number> {
    let removed = 0;
    for (const [streamId, events] of this.streams) {
      if (!streamId.startsWith(prefix)) continue;
      events.forEach((e) => this.index.delete(e.id));
      removed += events.length;
      this.streams.delete(streamId);
    }
    return removed;
  }

  async close(): Promise<void> {
    this.streams.clear();
    this.index.clear();
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /** The event, its stream and position; undefined when unknown, trimmed or expired. */
  private find(eventId: string): { streamId: string; events: StoredEvent[]; at: number } | undefined {
    const streamId = this.index.get(eventId);
    const events = streamId === undefined ? undefined : this.streams.get(streamId);
    if (streamId === undefined || !events) return undefined;
    const at = events.findIndex((e) => e.id === eventId);
    const event = events[at];
    if (!event || event.at <= this.now() - this.retentionMs) return undefined;
    return { streamId, events, at };
  }

  private dropOldestStream(): void {
    const first = this.streams.keys().next();
    if (first.done) return;
    this.streams.get(first.value)?.forEach((e) => this.index.delete(e.id));
    this.streams.delete(first.value);
  }
}
