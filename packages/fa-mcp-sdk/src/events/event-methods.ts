/**
 * The params of the `events/*` methods, checked with ajv before anything runs (-32602 naming
 * the field), and the answers of `events/list` (paginated, only the types the caller may see)
 * and `events/poll` (a cursor's next batch; `null` starts now; `maxEvents`, `maxAgeMs`,
 * `timeoutMs` for a bounded long poll; `truncated`, `hasMore`, `nextPollMs`).
 */
import { ValidationError } from '../core/errors.js';
import type { EventsMethod } from '../core/event-port.js';
import type { JsonObject } from '../core/json-object.js';
import type { Paginator } from '../core/pagination.js';
import type { RequestContext } from '../core/request-context.js';
import { SchemaValidator } from '../core/schema-validator.js';
import type { EventMetrics } from './event-metrics.js';
import type { EventReader, Subscriber } from './event-reader.js';
import type { EventRegistry, EventTypeEntry } from './event-registry.js';
import type { TEventDeliveryMode } from './event-types.js';

const cursor = { type: ['string', 'null'] };
const subscription = {
  name: { type: 'string', minLength: 1 },
  arguments: { type: 'object' },
  cursor,
  maxAgeMs: { type: 'integer', minimum: 0 },
};

/** JSON Schema of each method's params. */
export const EVENTS_METHOD_PARAMS: Record<EventsMethod, JsonObject> = {
  'events/list': { type: 'object', properties: { cursor: { type: 'string' } } },
  'events/poll': {
    type: 'object',
    required: ['name'],
    properties: { ...subscription, maxEvents: { type: 'integer', minimum: 1 }, timeoutMs: { type: 'integer', minimum: 0 } },
  },
  'events/stream': { type: 'object', required: ['name'], properties: subscription },
  'events/subscribe': {
    type: 'object',
    required: ['name', 'delivery'],
    properties: {
      ...subscription,
      delivery: {
        type: 'object',
        required: ['mode', 'url', 'secret'],
        properties: { mode: { const: 'webhook' }, url: { type: 'string' }, secret: { type: 'string' } },
      },
      ttlMs: { type: ['integer', 'null'], minimum: 1 },
    },
  },
  'events/unsubscribe': {
    type: 'object',
    required: ['name', 'delivery'],
    properties: { name: subscription.name, arguments: subscription.arguments, delivery: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
  },
};

const validator = new SchemaValidator();

/** -32602 naming the first field of `params` that breaks the method's schema. */
export function checkParams(method: EventsMethod, params: JsonObject): void {
  const outcome = validator.validate(EVENTS_METHOD_PARAMS[method], params);
  if (outcome.ok) return;
  const first = outcome.issues[0];
  throw new ValidationError(`Invalid params of ${method}: ${first?.field ?? '(root)'} ${first?.reason ?? 'is invalid'}`, { field: first?.field ?? '(root)', issues: outcome.issues });
}

/** The subscriber a request names: its type (offering `mode`), its checked arguments, its principal. */
export function subscriberOf(registry: EventRegistry, params: JsonObject, ctx: RequestContext, mode: TEventDeliveryMode): Subscriber {
  const entry: EventTypeEntry = registry.forMode(String(params.name), mode);
  const args = registry.checkArguments(entry, params.arguments);
  const auth = ctx.auth ? { subject: ctx.auth.subject, scopes: ctx.auth.scopes, groups: ctx.auth.groups } : undefined;
  return { entry, args, principal: ctx.auth?.subject ?? '', match: { ...(auth ? { auth } : {}), mode } };
}

/** `events/list`: a page of the types the caller may see. */
export function listEvents(registry: EventRegistry, paginator: Paginator, params: JsonObject, ctx: RequestContext): JsonObject {
  const visible = registry.visible(ctx);
  const page = paginator.paginate('events', visible, (e) => e.def.name, typeof params.cursor === 'string' ? params.cursor : undefined);
  return { events: page.items.map((e) => registry.describe(e)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export interface PollSettings {
  maxEventsPerPoll: number;
  maxPollWaitMs: number;
  pollIntervalMs: number;
}

/** `events/poll`: the next occurrences after the cursor, holding the request up to timeoutMs when there are none. */
export async function pollEvents(
  reader: EventReader,
  sub: Subscriber,
  params: JsonObject,
  settings: PollSettings,
  waitFor: (name: string, ms: number, signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
  metrics: EventMetrics | undefined,
): Promise<JsonObject> {
  const limit = Math.min(settings.maxEventsPerPoll, typeof params.maxEvents === 'number' ? params.maxEvents : settings.maxEventsPerPoll);
  const start = await reader.start(sub, params.cursor, typeof params.maxAgeMs === 'number' ? params.maxAgeMs : undefined);
  const fresh = params.cursor === null || params.cursor === undefined;
  let batch = fresh ? { events: [], position: start.after, more: false } : await reader.next(sub, start, limit);
  const waitMs = Math.min(settings.maxPollWaitMs, typeof params.timeoutMs === 'number' ? params.timeoutMs : 0);
  if (!fresh && batch.events.length === 0 && waitMs > 0 && !signal.aborted) {
    await waitFor(sub.entry.def.name, waitMs, signal);
    batch = await reader.next(sub, { ...start, after: batch.position }, limit);
  }
  const last = batch.events[batch.events.length - 1];
  if (last) metrics?.delivered(sub.entry.def.name, 'poll', last.timestamp, batch.events.length);
  return {
    events: batch.events.map((o) => reader.occurrence(sub, o, false)),
    cursor: reader.cursor(sub, batch.position),
    truncated: start.truncated,
    hasMore: batch.more,
    nextPollMs: settings.pollIntervalMs,
  };
}
