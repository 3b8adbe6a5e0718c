/**
 * Resumability events for 2025-era SSE streams, in memory: each stream keeps its
 * last `maxEventsPerStream` messages so a client reconnecting with Last-Event-ID
 * gets what it missed. Bounded per stream and in the number of streams.
 */
import { randomUUID } from 'node:crypto';

export interface JsonRpcMessageLike {
  jsonrpc: '2.0';
  [key: string]: unknown;
}

export interface IEventStore {
  storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string>;
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  replayEventsAfter(lastEventId: string, opts: { send: (eventId: string, message: JsonRpcMessageLike) => Promise<void> }): Promise<string>;
}

export interface InMemoryEventStoreOptions {
  maxEventsPerStream?: number;
  maxStreams?: number;
}

interface StoredEvent {
  id: string;
  message: JsonRpcMessageLike;
}

export class InMemoryEventStore implements IEventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly index = new Map<string, string>();
  private readonly maxEvents: number;
  private readonly maxStreams: number;

  constructor(opts: InMemoryEventStoreOptions = {}) {
    this.maxEvents = opts.maxEventsPerStream ?? 1000;
    this.maxStreams = opts.maxStreams ?? 10_000;
  }

  async storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string> {
    let events = this.streams.get(streamId);
    if (!events) {
      if (this.streams.size >= this.maxStreams) this.dropOldestStream();
      events = [];
      this.streams.set(streamId, events);
    }
    const id = `${streamId}_${randomUUID()}`;
    events.push({ id, message });
    this.index.set(id, streamId);
    while (events.length > this.maxEvents) {
      const dropped = events.shift();
      if (dropped) this.index.delete(dropped.id);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.index.get(eventId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JsonRpcMessageLike) => Promise<void> }): Promise<string> {
    const streamId = this.index.get(lastEventId);
    if (!streamId) throw new Error('Unknown or expired Last-Event-ID');
    const events = this.streams.get(streamId) ?? [];
    const at = events.findIndex((e) => e.id === lastEventId);
    for (const e of events.slice(at + 1)) await send(e.id, e.message);
    return streamId;
  }

  /** Forgets a stream (its session ended). */
  dropStreamsOf(prefix: string): void {
    for (const [streamId, events] of this.streams) {
      if (!streamId.startsWith(prefix)) continue;
      events.forEach((e) => this.index.delete(e.id));
      this.streams.delete(streamId);
    }
  }

  get streamCount(): number {
    return this.streams.size;
  }

  private dropOldestStream(): void {
    const first = this.streams.keys().next();
    if (first.done) return;
    this.streams.get(first.value)?.forEach((e) => this.index.delete(e.id));
    this.streams.delete(first.value);
  }
}
