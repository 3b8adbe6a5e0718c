/**
 * One session's view of the shared event store. The SDK names every session's
 * standalone GET stream alike (`_GET_stream`), so without a view all sessions
 * would share that stream: a client replaying its own Last-Event-ID would get
 * other sessions' notifications. The view prefixes stream ids with the session
 * id, refuses event ids of other sessions, and forgets the session's events
 * when it ends.
 */
import { randomUUID } from 'node:crypto';
import { UNKNOWN_EVENT_ID, type IEventStore, type JsonRpcMessageLike } from './event-store-memory.js';

export interface SessionEventStore extends IEventStore {
  /** Forgets every event of the session (call when it ends). */
  drop(): Promise<void>;
  /** While true, events are not kept (each gets a fresh id): a restored session replaying its initialize. */
  muted: boolean;
}

type Send = (eventId: string, message: JsonRpcMessageLike) => Promise<void>;

export function sessionEventStore(store: IEventStore, sessionId: string): SessionEventStore {
  return new SessionView(store, `${sessionId}/`);
}

/** A class, so an idle session holds its two fields and not a set of closures of its own. */
class SessionView implements SessionEventStore {
  muted = false;

  constructor(
    private readonly store: IEventStore,
    private readonly prefix: string,
  ) {}

  private own(streamId: string | undefined): string | undefined {
    return streamId?.startsWith(this.prefix) ? streamId.slice(this.prefix.length) : undefined;
  }

  storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string> {
    if (this.muted) return Promise.resolve(randomUUID());
    return this.store.storeEvent(this.prefix + streamId, message);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.own(await this.store.getStreamIdForEventId?.(eventId));
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: Send }): Promise<string> {
    const { store } = this;
    if (store.getStreamIdForEventId) {
      // checked before anything is sent
      if (this.own(await store.getStreamIdForEventId(lastEventId)) === undefined) throw new Error(UNKNOWN_EVENT_ID);
      const streamId = this.own(await store.replayEventsAfter(lastEventId, { send }));
      if (streamId === undefined) throw new Error(UNKNOWN_EVENT_ID);
      return streamId;
    }
    // A store that cannot say whose an id is: hold the events until it names the stream.
    const held: Array<Parameters<Send>> = [];
    const streamId = this.own(await store.replayEventsAfter(lastEventId, { send: async (id, message) => void held.push([id, message]) }));
    if (streamId === undefined) throw new Error(UNKNOWN_EVENT_ID);
    for (const [id, message] of held) await send(id, message);
    return streamId;
  }

  async drop(): Promise<void> {
    await this.store.dropStreamsOf?.(this.prefix);
  }
}
