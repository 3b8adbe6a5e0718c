/**
 * Reading one event type's order for one subscriber, the same way on every mode: where a
 * cursor starts (null: now; a stale one: the oldest retained, with `truncated: true`; past
 * `maxAgeMs`: its floor, truncated too), and the next occurrences after a position that the
 * subscriber may receive (the type's matcher with the subscription's arguments).
 */
import type { JsonObject } from '../core/json-object.js';
import type { CursorCodec } from './event-cursor.js';
import type { EventRegistry, EventTypeEntry } from './event-registry.js';
import type { IMcpEventsStore, StoredOccurrence } from './events-store.js';
import type { IEventMatchContext } from './event-types.js';

/** One subscriber of one type: who, with which arguments, on which mode. */
export interface Subscriber {
  entry: EventTypeEntry;
  args: JsonObject;
  /** The principal cursors are bound to ('' when anonymous). */
  principal: string;
  match: IEventMatchContext;
}

export interface StartPoint {
  /** Occurrences after this position are delivered. */
  after: number;
  truncated: boolean;
  /** Occurrences older than this (epoch ms) are skipped (maxAgeMs). */
  minTimestamp?: number;
}

export interface Batch {
  events: StoredOccurrence[];
  /** The position scanned up to (past occurrences the matcher skipped too). */
  position: number;
  /** More may follow at once (the limit was reached). */
  more: boolean;
}

/** Occurrences scanned per store read. */
const PAGE = 200;

export class EventReader {
  constructor(
    private readonly store: IMcpEventsStore,
    private readonly registry: EventRegistry,
    private readonly codec: CursorCodec,
    private readonly now: () => number,
  ) {}

  /** The start of a subscription from the cursor the client sent (-32602 for a cursor this server did not issue). */
  async start(sub: Subscriber, cursor: unknown, maxAgeMs: number | undefined): Promise<StartPoint> {
    const name = sub.entry.def.name;
    const head = await this.store.head(name);
    if (!sub.entry.replay || cursor === null || cursor === undefined) return { after: head, truncated: false };
    const decoded = this.codec.decode(String(cursor), name, sub.principal, head);
    if (decoded.kind === 'other-epoch') return { after: head, truncated: true };
    const after = decoded.seq;
    const minTimestamp = maxAgeMs !== undefined ? this.now() - maxAgeMs : undefined;
    return { after, truncated: await this.skipped(name, after, head, minTimestamp), ...(minTimestamp !== undefined ? { minTimestamp } : {}) };
  }

  /** Whether occurrences after `after` are gone (retention) or below the maxAgeMs floor. */
  async skipped(name: string, after: number, head: number, minTimestamp?: number): Promise<boolean> {
    if (after >= head) return false;
    const oldest = await this.store.oldest(name);
    if (oldest === undefined || oldest > after + 1) return true;
    if (minTimestamp === undefined) return false;
    const [first] = await this.store.read(name, after, 1);
    return first !== undefined && first.timestamp < minTimestamp;
  }

  /** The next occurrences for `sub` after `from`, at most `limit`. */
  async next(sub: Subscriber, from: StartPoint, limit: number): Promise<Batch> {
    const name = sub.entry.def.name;
    const head = await this.store.head(name);
    const events: StoredOccurrence[] = [];
    let position = from.after;
    for (;;) {
      const page = await this.store.read(name, position, PAGE, from.minTimestamp);
      for (const o of page) {
        if (this.registry.matches(sub.entry, sub.args, o.data, sub.match)) events.push(o);
        position = o.seq;
        if (events.length >= limit) return { events, position, more: true };
      }
      if (page.length < PAGE) break;
    }
    // Everything up to the head read before this scan was seen (the rest was older than the floor, or pruned).
    return { events, position: Math.max(position, head), more: false };
  }

  /** The cursor of a position for this subscriber; null for a type without replay. */
  cursor(sub: Subscriber, position: number): string | null {
    return sub.entry.replay ? this.codec.encode(sub.entry.def.name, sub.principal, position) : null;
  }

  /** An occurrence as the wire carries it (`events[]` of a poll, a push notification, a webhook body). */
  occurrence(sub: Subscriber, o: StoredOccurrence, withCursor: boolean): JsonObject {
    return {
      eventId: o.eventId,
      name: o.name,
      timestamp: new Date(o.timestamp).toISOString(),
      data: o.data,
      ...(withCursor ? { cursor: this.cursor(sub, o.seq) } : {}),
    };
  }
}
