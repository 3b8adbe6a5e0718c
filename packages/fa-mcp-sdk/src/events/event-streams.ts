/**
 * Push delivery (`events/stream`): each open stream follows its event type's order from its
 * start point, woken when an occurrence is stored — by an emit on this instance, or by the
 * notification bus for an emit on another — and sends `notifications/events/heartbeat` with
 * its position when nothing happens. A stream catches up from the store, so what was emitted
 * while it was being opened, or on another instance, is not missed. Streams end (with the
 * empty StreamEventsResult) when the server stops, so their clients reconnect elsewhere with
 * their cursor.
 */
import type { EventStreamSink } from '../core/event-port.js';
import type { JsonObject } from '../core/json-object.js';
import { EventLimitError } from './events-errors.js';
import type { EventMetrics } from './event-metrics.js';
import type { EventReader, StartPoint, Subscriber } from './event-reader.js';

export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

export interface StreamSettings {
  heartbeatMs: number;
  /** Occurrences sent per read while catching up. */
  batch: number;
  maxStreamsPerPrincipal: number;
}

interface OpenStream {
  name: string;
  wake: () => void;
  end: () => void;
}

export class EventStreams {
  private readonly open = new Set<OpenStream>();
  private readonly perPrincipal = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly reader: EventReader,
    private readonly settings: StreamSettings,
    private readonly metrics: EventMetrics | undefined,
    private readonly onError: (err: unknown, name: string) => void,
  ) {}

  /** Something of `name` was stored (here or on another instance): open streams of it read on. */
  wake(name: string): void {
    for (const s of this.open) if (s.name === name) s.wake();
  }

  get size(): number {
    return this.open.size;
  }

  /** Refuses a stream past the principal's cap (-32013) before anything is sent. */
  admit(principal: string): () => void {
    const held = this.perPrincipal.get(principal) ?? 0;
    if (held >= this.settings.maxStreamsPerPrincipal) throw new EventLimitError('streams', this.settings.maxStreamsPerPrincipal);
    this.perPrincipal.set(principal, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.perPrincipal.get(principal) ?? 1) - 1;
      if (n <= 0) this.perPrincipal.delete(principal);
      else this.perPrincipal.set(principal, n);
    };
  }

  /** Serves one stream until the client goes (`signal`) or the server stops; resolves with the StreamEventsResult. */
  async serve(sub: Subscriber, start: StartPoint, sink: EventStreamSink, signal: AbortSignal, subscriptionId: string | number): Promise<JsonObject> {
    const meta = { [SUBSCRIPTION_ID_META]: subscriptionId };
    const name = sub.entry.def.name;
    let position = start.after;
    let pending = true;
    let ended = false;
    let resolveWait: (() => void) | undefined;
    const nudge = () => {
      pending = true;
      resolveWait?.();
    };
    const stream: OpenStream = {
      name,
      wake: nudge,
      end: () => {
        ended = true;
        resolveWait?.();
      },
    };
    const onAbort = () => stream.end();
    signal.addEventListener('abort', onAbort, { once: true });
    this.open.add(stream);
    if (this.closed) stream.end();
    try {
      await sink.notify('notifications/events/active', { cursor: this.reader.cursor(sub, position), truncated: start.truncated, _meta: meta });
      let lastSent = Date.now();
      while (!ended) {
        if (pending) {
          pending = false;
          const batch = await this.reader.next(sub, { ...start, after: position }, this.settings.batch);
          if (batch.events.length > 0 && position > 0 && (await this.reader.skipped(name, position, batch.events[0]?.seq ?? position))) {
            // Retention dropped what this stream had not read yet: say so, then go on.
            await sink.notify('notifications/events/active', { cursor: this.reader.cursor(sub, position), truncated: true, _meta: meta });
          }
          for (const o of batch.events) {
            if (ended) break;
            await sink.notify('notifications/events/event', { ...this.reader.occurrence(sub, o, true), _meta: meta });
            this.metrics?.delivered(name, 'push', o.timestamp);
            position = o.seq;
            lastSent = Date.now();
          }
          if (!ended) position = Math.max(position, batch.position);
          if (batch.more) pending = true;
          continue;
        }
        const quiet = this.settings.heartbeatMs - (Date.now() - lastSent);
        if (quiet <= 0) {
          await sink.notify('notifications/events/heartbeat', { cursor: this.reader.cursor(sub, position), _meta: meta });
          lastSent = Date.now();
          continue;
        }
        await new Promise<void>((resolve) => {
          resolveWait = resolve;
          const timer = setTimeout(resolve, quiet);
          timer.unref();
          if (pending || ended) resolve();
        }).finally(() => (resolveWait = undefined));
      }
    } catch (err) {
      // The client went away mid-send, or the store failed: the stream ends; the client resumes from its cursor.
      if (!signal.aborted) {
        this.metrics?.failed(name, 'push');
        this.onError(err, name);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.open.delete(stream);
    }
    return { _meta: {} };
  }

  /** Ends every open stream (shutdown): each answers its request, so the client reconnects with its cursor. */
  endAll(): number {
    this.closed = true;
    const n = this.open.size;
    for (const s of [...this.open]) s.end();
    return n;
  }
}
