/**
 * How a call the session fast path serves (protocol/session-fast-call.ts) is
 * answered on the wire: as the SDK's session transport answers a POST, byte
 * for byte in what a client reads.
 *
 * - JSON responses: one JSON body with the session id; messages related to
 *   the call have nowhere to go (the SDK drops them too).
 * - SSE responses: an event stream whose events are stored in the session's
 *   event store first (ids from the store, a priming event for clients of
 *   2025-11-25 and later), so a client that lost the stream, or whose stream
 *   the tool closed (`closeStream`), resumes it with Last-Event-ID
 *   (SessionStreams.resume); keep-alive comments while the call runs.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '../../protocol/sdk-server.js';
import type { SessionCallExchange } from '../../protocol/session-fast-call.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import { KEEP_ALIVE, KEEP_ALIVE_MS, SSE_HEADERS, sseEvent } from './sse-frames.js';
import { writeJsonRpcBody } from './web-response.js';


export interface ExchangeOptions {
  res: ServerResponse;
  sessionId: string;
  mapErrorStatus: boolean;
}

/** A call answered with one JSON body. */
export function jsonExchange(opts: ExchangeOptions): SessionCallExchange {
  const { res } = opts;
  return {
    push: () => Promise.resolve(),
    async answer(message) {
      if (res.writableEnded || res.destroyed) return;
      const text = JSON.stringify(message);
      const headers = { 'content-type': 'application/json', 'mcp-session-id': opts.sessionId, 'content-length': String(Buffer.byteLength(text)) };
      writeJsonRpcBody(res, text, headers, { mapErrorStatus: opts.mapErrorStatus });
    },
    abandon() {
      // The SDK would leave the request open for good; a cancelled call ends with no content.
      if (!res.headersSent) res.writeHead(204, { 'mcp-session-id': opts.sessionId });
      res.end();
    },
  };
}

/** The event streams of a session's fast-served calls that a client may resume, by stream id. */
export class SessionStreams {
  private readonly open = new Map<string, CallStream>();

  constructor(private readonly events: IEventStore) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * The stream of a call still running here that the event `lastEventId` belongs to; undefined
   * for other streams, finished calls and unknown ids (the SDK's transport resumes those).
   */
  async streamOf(lastEventId: string): Promise<ResumableStream | undefined> {
    if (this.open.size === 0) return undefined;
    const streamId = await this.events.getStreamIdForEventId?.(lastEventId);
    return streamId === undefined ? undefined : this.open.get(streamId);
  }

  /** Resumes `stream` on `res` after `lastEventId` (its events are stored: a call that finished since is replayed to its end). */
  resume(stream: ResumableStream, lastEventId: string, res: ServerResponse): void {
    if (stream.attached) {
      const text = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Stream already has an active connection' }, id: null });
      res.writeHead(409, { 'content-type': 'application/json' }).end(text);
      return;
    }
    stream.resume(lastEventId, res);
  }

  /** A call answered on an event stream. `priming`: the client's revision takes the priming event (2025-11-25 and later). */
  exchange(opts: ExchangeOptions, priming: boolean): SessionCallExchange {
    // A stream is resumable (and listed) once it began: before, it has no event id a client could hold.
    const stream = new CallStream(this.events, opts.res, opts.sessionId, priming, (begun) => this.open.set(begun.id, begun));
    const done = () => {
      if (stream.listed) this.open.delete(stream.id);
    };
    // Every field in the literal, closeSSE too (PER_CALL_OBJECTS in protocol/client-channel.ts).
    return {
      push: (message) => stream.send(message),
      answer: async (message) => {
        await stream.send(message as JSONRPCMessage, true);
        done();
      },
      abandon() {
        stream.finish();
        done();
      },
      closeSSE: priming ? () => stream.detach() : undefined,
    };
  }
}

/** A call's event stream, as a resumption sees it. */
export interface ResumableStream {
  readonly attached: boolean;
  resume(lastEventId: string, res: ServerResponse): void;
}

/**
 * One call's event stream: events stored, then written to whichever response is attached.
 * A call answered before the event loop turns (most calls) costs no stream id, no listing, no
 * promise queue and no timer: its answer leaves at once (answerAtOnce).
 */
class CallStream implements ResumableStream {
  private streamId: string | undefined;
  private sink: ServerResponse | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private tail: Promise<void> = Promise.resolve();
  /** Steps queued and not yet finished: none, and the stream may act at once. */
  private pending = 0;
  private finished = false;
  /** The stream has begun: headers and priming event written (or the client had gone). */
  private begun = false;
  private readonly starter: NodeJS.Immediate;

  constructor(
    private readonly events: IEventStore,
    private readonly res: ServerResponse,
    private readonly sessionId: string,
    private readonly priming: boolean,
    private readonly onBegin: (stream: CallStream) => void,
  ) {
    // A call still running when the event loop turns gets its stream (headers, priming event) then;
    // one answered before is written at once, as a stream of that one event (see send).
    this.starter = setImmediate(() => void this.enqueue(() => this.begin()));
  }

  /** The stream's id in the event store (minted when first needed). */
  get id(): string {
    return (this.streamId ??= randomUUID());
  }

  /** Listed among the session's open streams (it began). */
  get listed(): boolean {
    return this.begun && this.streamId !== undefined;
  }

  private async begin(): Promise<void> {
    if (this.begun) return;
    this.begun = true;
    this.onBegin(this);
    const { res } = this;
    if (res.writableEnded || res.destroyed) return; // the client went away: events are only stored
    this.attach(res);
    if (!this.priming) {
      res.flushHeaders();
      return;
    }
    // The priming event is stored empty, as the SDK's transport stores it (replays start after it).
    const eventId = await this.events.storeEvent(this.id, {} as never);
    this.write(`id: ${eventId}\ndata: \n\n`);
  }

  get attached(): boolean {
    return this.sink !== undefined;
  }

  /** Stores a message and writes it; `last` ends the stream with it (one write for the event and the end). */
  send(message: JSONRPCMessage, last = false): Promise<void> {
    // The answer before anything else: one write, nothing queued (as the queued step would do it).
    if (last && !this.begun && !this.finished && this.pending === 0) {
      this.answerAtOnce(message);
      return Promise.resolve();
    }
    return this.enqueue(async () => {
      if (this.finished) return;
      if (!this.begun) {
        if (last) return this.answerAtOnce(message);
        await this.begin();
      }
      const eventId = await this.events.storeEvent(this.id, message as never);
      const text = sseEvent(JSON.stringify(message), eventId);
      if (!last) return this.write(text);
      this.finished = true;
      const sink = this.sink;
      this.release();
      if (sink && !sink.writableEnded && !sink.destroyed) sink.end(text);
    });
  }

  /** Ends the stream without a last message. */
  finish(): void {
    void this.enqueue(async () => this.end());
  }

  /**
   * An answer ready before the stream began: headers and the one event leave in one write, and
   * nothing is stored, as no client can resume a stream it had no event id of (the answer is the
   * stream's only event).
   */
  private answerAtOnce(message: JSONRPCMessage): void {
    this.finished = true;
    this.begun = true;
    clearImmediate(this.starter);
    const { res } = this;
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(200, this.headers());
    res.end(sseEvent(JSON.stringify(message)));
  }

  /** Lets go of the response (the client resumes later); events are still stored. */
  detach(): void {
    void this.enqueue(async () => {
      await this.begin();
      const sink = this.sink;
      this.release();
      if (sink && !sink.writableEnded) sink.end();
    });
  }

  /** Replays what the client missed after `lastEventId`, then carries on live on `res`. */
  resume(lastEventId: string, res: ServerResponse): void {
    void this.enqueue(async () => {
      this.attach(res);
      await this.events.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => this.write(sseEvent(JSON.stringify(message), eventId)),
      });
      res.flushHeaders();
      if (this.finished) this.end();
    });
  }

  private attach(res: ServerResponse): void {
    this.sink = res;
    res.writeHead(200, this.headers());
    res.once('close', () => {
      if (this.sink === res) this.release();
    });
    this.keepAlive = setInterval(() => this.write(KEEP_ALIVE), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  private headers(): Record<string, string> {
    // Not `{ ...SSE_HEADERS, more }`, ~2.5 µs per call on Node 20: SPREAD_FIRST in protocol/client-channel.ts.
    return Object.assign({}, SSE_HEADERS, { 'mcp-session-id': this.sessionId });
  }

  private write(text: string): void {
    const sink = this.sink;
    if (sink && !sink.writableEnded && !sink.destroyed) sink.write(text);
  }

  private end(): void {
    this.finished = true;
    if (!this.begun) {
      // Ended before it began (a call cancelled at once): an empty stream.
      this.begun = true;
      if (!this.res.writableEnded && !this.res.destroyed) this.res.writeHead(200, this.headers()).end();
      return;
    }
    const sink = this.sink;
    this.release();
    if (sink && !sink.writableEnded) sink.end();
  }

  private release(): void {
    this.sink = undefined;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.pending++;
    const run = async () => {
      try {
        await step();
      } finally {
        this.pending--;
      }
    };
    const next = this.tail.then(run, run);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
