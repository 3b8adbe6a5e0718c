/**
 * The Events extension of one server, built from `McpServerData.events` and `mcp.events`: the
 * store (memory, or PostgreSQL migrated at start), the emitter (payload checked, stored with
 * its webhook deliveries, then announced to this instance's streams and, over the notification
 * bus, to the other instances'), the methods the protocol layer serves (the EventsPort), the
 * webhook dispatcher on the durable outbox, the sweeps, metrics and spans.
 */
import { randomUUID } from 'node:crypto';
import { trace, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { Registry as PromRegistry } from 'prom-client';
import type { EventsConfig } from '../config/sections/events.js';
import type { WebhooksConfig } from '../config/sections/webhooks.js';
import type { CoreLogger } from '../core/logger-types.js';
import { PayloadTooLargeError, ValidationError } from '../core/errors.js';
import type { EventsPort, EventStreamSink, IEventEmitOptions, IEventEmitResult, IEventEmitter } from '../core/event-port.js';
import type { JsonObject } from '../core/json-object.js';
import { Paginator } from '../core/pagination.js';
import type { PipelineStep } from '../core/pipeline.js';
import type { RequestContext } from '../core/request-context.js';
import type { RefusalReporter } from '../core/steps/authorize.js';
import type { PgPool } from '../db/pg-types.js';
import type { INotificationBus } from '../state/notification-bus.js';
import { AddressPolicy } from '../webhooks/address-policy.js';
import { createHttpPoster, type HttpPoster } from '../webhooks/http-delivery.js';
import { realScheduler, WebhookDispatcher, type DispatcherLogger } from '../webhooks/webhook-dispatcher.js';
import { CursorCodec } from './event-cursor.js';
import { EventMetrics } from './event-metrics.js';
import { checkParams, EVENTS_METHOD_PARAMS, listEvents, pollEvents, subscriberOf } from './event-methods.js';
import { EventReader } from './event-reader.js';
import { EventRegistry } from './event-registry.js';
import { EventStreams } from './event-streams.js';
import type { IEventTypeData } from './event-types.js';
import { EventWebhooks } from './event-webhooks.js';
import { authorizeEventStep } from './events-authorize.js';
import type { IMcpEventsStore } from './events-store.js';
import { InMemoryMcpEventsStore } from './events-store-memory.js';
import { EVENTS_EXTENSION_ID } from './events-id.js';
import { PostgresMcpEventsStore } from './events-store-postgres.js';


export interface EventsRuntimeOptions {
  types: readonly IEventTypeData[];
  config: EventsConfig;
  /** Retries, leases and timeouts of the deliveries. */
  webhooks: WebhooksConfig;
  nodeEnv: string;
  logger: CoreLogger & DispatcherLogger;
  /** The pool of `mcp.events.database` (postgres store). */
  pool?: () => Promise<PgPool>;
  /** A store of your own (replaces `mcp.events.store`). */
  store?: IMcpEventsStore;
  /** Carries "something was stored" to the other instances. */
  bus: INotificationBus;
  /** The server's identity for list cursors. */
  identity: string;
  registry?: PromRegistry;
  userAgent: string;
  /** The HTTP attempt of deliveries (tests may replace it). */
  post?: HttpPoster;
}

/** What a running server offers of its events (`handle.events`). */
export interface EventsHandle extends IEventEmitter {
  /** The declared event types' names. */
  readonly types: string[];
  /** Where occurrences, webhook subscriptions and their deliveries live. */
  readonly store: IMcpEventsStore;
}

export interface EventsRuntime extends EventsPort {
  /** `handle.events`. */
  handle: EventsHandle;
  registry: EventRegistry;
  store: IMcpEventsStore;
  dispatcher: WebhookDispatcher;
  /** The pipeline step that authorizes the methods naming an event type (placed after `authorize`). */
  authorizeStep(hideUnauthorized: boolean, onRefused?: RefusalReporter): PipelineStep;
  /** Ends the open push streams (shutdown), so their clients reconnect elsewhere; returns how many. */
  endStreams(): number;
  close(): Promise<void>;
}

export async function createEventsRuntime(opts: EventsRuntimeOptions): Promise<EventsRuntime> {
  const { config, logger } = opts;
  const registry = new EventRegistry(opts.types);
  let store = opts.store;
  let channel = 'mcp-events';
  if (!store) {
    if (config.store === 'postgres') {
      if (!opts.pool) throw new Error('mcp.events.store "postgres" needs the server\'s databases (db.postgres.dbs)');
      const pool = await opts.pool();
      store = await PostgresMcpEventsStore.open(pool);
      // NOTIFY reaches the whole database: instances of other schemas are not ours.
      const { rows } = await pool.query<{ schema: string | null }>('SELECT current_schema() AS schema');
      channel = `mcp-events@${rows[0]?.schema ?? ''}`;
    } else {
      store = new InMemoryMcpEventsStore();
    }
  }
  const events = store;
  const codec = new CursorCodec(events.cursorKey, events.epoch, events.durable ? 'refuse' : 'restart');
  const reader = new EventReader(events, registry, codec, () => Date.now());
  const origin = randomUUID();
  const tracer: Tracer = trace.getTracer('fa-mcp-sdk');
  const streamsRef: { streams?: EventStreams } = {};
  const metrics = opts.registry ? new EventMetrics(opts.registry, () => streamsRef.streams?.size ?? 0) : undefined;
  const streams = new EventStreams(reader, { heartbeatMs: config.heartbeatMs, batch: config.maxEventsPerPoll, maxStreamsPerPrincipal: config.maxStreamsPerPrincipal }, metrics, (err, name) =>
    logger.warn({ err, event: name }, 'an event stream ended on an error'),
  );
  streamsRef.streams = streams;
  const allowPrivate = config.webhooks.allowPrivateNetworks ?? opts.nodeEnv !== 'production';
  const policy = new AddressPolicy(allowPrivate);
  const post = tracedPoster(opts.post ?? createHttpPoster(policy), tracer);
  const dispatchRef: { dispatcher?: WebhookDispatcher } = {};
  const webhooks = new EventWebhooks(
    events,
    registry,
    reader,
    policy,
    { ...config.webhooks, maxSubscriptionsPerPrincipal: config.maxSubscriptionsPerPrincipal, maxReplay: config.retention.maxEvents, timeoutMs: opts.webhooks.timeoutMs, userAgent: opts.userAgent },
    () => dispatchRef.dispatcher?.wake(),
  );
  const dispatcher = new WebhookDispatcher({
    outbox: events.outbox,
    endpoints: webhooks.lookup(),
    post,
    retry: opts.webhooks,
    owner: origin,
    leaseMs: opts.webhooks.leaseMs,
    pollIntervalMs: opts.webhooks.pollIntervalMs,
    concurrency: opts.webhooks.concurrency,
    scheduler: realScheduler,
    random: Math.random,
    logger,
    ...(metrics ? { metrics: metrics.webhookDeliveries() } : {}),
    userAgent: opts.userAgent,
  });
  dispatchRef.dispatcher = dispatcher;

  // Polls held open (timeoutMs) and streams wake on a store of their type, here or on another instance.
  const waiters = new Map<string, Set<() => void>>();
  const wake = (name: string) => {
    streams.wake(name);
    for (const w of [...(waiters.get(name) ?? [])]) w();
  };
  const unsubscribeBus = opts.bus.subscribe(channel, (p) => {
    if (p.origin !== origin && typeof p.name === 'string') wake(p.name);
  });
  const waitFor = (name: string, ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const set = waiters.get(name) ?? new Set<() => void>();
      waiters.set(name, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      set.add(done);
      signal.addEventListener('abort', done, { once: true });
    });

  const emitter: IEventEmitter = {
    emit: (name, data, options) => tracer.startActiveSpan('events.emit', { attributes: { 'mcp.event.name': name } }, (span) => emit(name, data, options).finally(() => span.end()).catch((err: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    })),
  };

  async function emit(name: string, data: JsonObject, options: IEventEmitOptions = {}): Promise<IEventEmitResult> {
    const entry = registry.get(name);
    const bytes = Buffer.byteLength(JSON.stringify(data ?? null));
    if (bytes > config.maxPayloadBytes) {
      metrics?.refused(name, 'size');
      throw new PayloadTooLargeError(`The payload of event ${name} is ${bytes} bytes, more than mcp.events.maxPayloadBytes (${config.maxPayloadBytes})`, { size: bytes, max: config.maxPayloadBytes });
    }
    try {
      registry.checkPayload(entry, data);
    } catch (err) {
      metrics?.refused(name, 'schema');
      throw err;
    }
    const eventId = options.eventId ?? `evt_${randomUUID()}`;
    if (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > 256) throw new ValidationError('eventId: a string of 1-256 characters', { field: 'eventId' });
    const timestamp = options.timestamp === undefined ? Date.now() : new Date(options.timestamp).getTime();
    if (!Number.isFinite(timestamp)) throw new ValidationError('timestamp: not a date', { field: 'timestamp' });
    const now = Date.now();
    const fanout = entry.delivery.includes('webhook') ? (subs: Parameters<typeof webhooks.fanout>[1], o: Parameters<typeof webhooks.fanout>[2]) => webhooks.fanout(entry, subs, o, now) : undefined;
    const outcome = await events.append({ name, eventId, timestamp, data }, fanout);
    if (!outcome.duplicate) {
      metrics?.emitted(name);
      wake(name);
      if (outcome.queued > 0) dispatcher.wake();
      await opts.bus.publish(channel, { name, seq: outcome.occurrence.seq, origin }).catch((err: unknown) => logger.warn({ err, event: name }, 'could not tell other instances of an event (their streams catch up on their next wake)'));
    }
    return { eventId, position: outcome.occurrence.seq, duplicate: outcome.duplicate, webhooks: outcome.queued };
  }

  // Occurrences past retention, lapsed subscriptions, and the delivered webhook deliveries of the
  // same age (the outbox keeps one row per delivery: without it, a long-lived subscription's rows grow
  // for ever; pending and dead ones stay).
  const sweep = () => {
    const before = Date.now() - config.retention.maxAgeMs;
    void Promise.all([events.prune(config.retention.maxEvents, before), events.lapse(Date.now()), events.outbox.sweep(before)]).catch((err: unknown) =>
      logger.warn({ err }, 'events sweep failed'),
    );
  };
  const sweepTimer = setInterval(sweep, config.sweepIntervalMs);
  sweepTimer.unref();
  dispatcher.start();
  const paginator = new Paginator(`${opts.identity}#events`, 100);
  logger.info({ types: registry.names(), store: opts.store ? 'custom' : config.store, allowPrivateNetworks: allowPrivate }, 'events enabled');

  return {
    id: EVENTS_EXTENSION_ID,
    methods: EVENTS_METHOD_PARAMS,
    emitter,
    handle: { emit: (name, data, options) => emitter.emit(name, data, options), types: registry.names(), store: events },
    registry,
    store: events,
    dispatcher,
    authorizeStep: (hide, onRefused) => authorizeEventStep(registry, hide, onRefused),
    async list(params: JsonObject, ctx: RequestContext) {
      checkParams('events/list', params);
      return listEvents(registry, paginator, params, ctx);
    },
    async poll(params, ctx, signal) {
      checkParams('events/poll', params);
      return pollEvents(reader, subscriberOf(registry, params, ctx, 'poll'), params, config, waitFor, signal, metrics);
    },
    async stream(params, ctx, sink: EventStreamSink, signal, subscriptionId) {
      checkParams('events/stream', params);
      const sub = subscriberOf(registry, params, ctx, 'push');
      const release = streams.admit(sub.principal);
      try {
        const start = await reader.start(sub, params.cursor, typeof params.maxAgeMs === 'number' ? params.maxAgeMs : undefined);
        return await tracer.startActiveSpan('events.stream', { attributes: { 'mcp.event.name': sub.entry.def.name } }, (span) =>
          streams.serve(sub, start, sink, signal, subscriptionId).finally(() => span.end()),
        );
      } finally {
        release();
      }
    },
    async subscribe(params, ctx) {
      checkParams('events/subscribe', params);
      return webhooks.subscribe(params, ctx);
    },
    async unsubscribe(params, ctx) {
      checkParams('events/unsubscribe', params);
      return webhooks.unsubscribe(params, ctx);
    },
    endStreams: () => streams.endAll(),
    async close() {
      clearInterval(sweepTimer);
      unsubscribeBus();
      streams.endAll();
      await dispatcher.close();
      if (!opts.store) await events.close();
    },
  };
}

/** Each webhook attempt in a span of its own (`events.deliver`). */
function tracedPoster(post: HttpPoster, tracer: Tracer): HttpPoster {
  return (attempt) =>
    tracer.startActiveSpan('events.deliver', { attributes: { 'mcp.event.delivery': 'webhook' } }, (span) =>
      post(attempt).then((result) => {
        if (result.kind === 'response') span.setAttribute('http.response.status_code', result.status);
        else span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
        span.end();
        return result;
      }),
    );
}
