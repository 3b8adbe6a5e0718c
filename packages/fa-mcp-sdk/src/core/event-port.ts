/**
 * What the core knows of the MCP Events extension (`io.modelcontextprotocol/events`):
 * the emitter a handler gets as `events` (`IToolHandlerParams.events`), and the port the
 * protocol layer serves the `events/*` methods through. Plain shapes: the extension itself
 * (declarations, stores, delivery) lives in src/events, which implements the port.
 */
import type { RequestContext } from './request-context.js';
import type { JsonObject } from './json-object.js';

export interface IEventEmitOptions {
  /**
   * The occurrence's id, for the client's deduplication: the upstream's stable id when it has
   * one (a ticket id, a delivery GUID). Emitting the same id of the same event type again stores
   * and delivers nothing more. Default: a fresh `evt_<uuid>`.
   */
  eventId?: string;
  /** When it happened; default now. */
  timestamp?: Date | string;
}

export interface IEventEmitResult {
  eventId: string;
  /** Its position in the event type's order (1, 2, 3 …). */
  position: number;
  /** true when this eventId had been emitted already (nothing was stored or delivered again). */
  duplicate: boolean;
  /** Webhook subscriptions the occurrence was queued for. */
  webhooks: number;
}

/**
 * Emits occurrences of the server's declared event types (`McpServerData.events`). Resolves
 * once the occurrence is stored (with the PostgreSQL store: committed, with its webhook
 * deliveries); a payload that breaks the event type's `payloadSchema`, or is larger than
 * `mcp.events.maxPayloadBytes`, is refused here and reaches nobody.
 */
export interface IEventEmitter {
  emit(name: string, data: JsonObject, options?: IEventEmitOptions): Promise<IEventEmitResult>;
}

/** Where an events/stream writes its notifications (the request's own stream). */
export interface EventStreamSink {
  notify(method: string, params: JsonObject): Promise<void>;
}

/** The methods of the extension, as the protocol layer serves them (src/events implements it). */
export interface EventsPort {
  /** `io.modelcontextprotocol/events`. */
  readonly id: string;
  /** JSON Schema of each method's params (checked before the pipeline: -32602). */
  readonly methods: Readonly<Record<EventsMethod, JsonObject>>;
  readonly emitter: IEventEmitter;
  list(params: JsonObject, ctx: RequestContext): Promise<JsonObject>;
  poll(params: JsonObject, ctx: RequestContext, signal: AbortSignal): Promise<JsonObject>;
  /** Resolves (with the empty StreamEventsResult) when the server ends the stream; rejects before it opens. */
  stream(params: JsonObject, ctx: RequestContext, sink: EventStreamSink, signal: AbortSignal, subscriptionId: string | number): Promise<JsonObject>;
  subscribe(params: JsonObject, ctx: RequestContext): Promise<JsonObject>;
  unsubscribe(params: JsonObject, ctx: RequestContext): Promise<JsonObject>;
}

export type EventsMethod = 'events/list' | 'events/poll' | 'events/stream' | 'events/subscribe' | 'events/unsubscribe';
