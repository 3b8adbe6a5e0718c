/**
 * Webhook delivery (`events/subscribe`, `events/unsubscribe`): subscriptions keyed by
 * (principal, callback URL, event type, canonical arguments), with the id derived from that
 * key; a TTL the client suggests and the server grants within `mcp.events.webhooks`; the
 * callback's consent checked before the first delivery; deliveries through the durable outbox
 * of src/webhooks (retries, leases, Standard Webhooks signatures with the client's secret,
 * `X-MCP-Subscription-Id`), one subscription's in order so each body's cursor is a safe
 * watermark.
 */
import { createHash } from 'node:crypto';
import { compactCanonicalJson } from '../core/canonical-json.js';
import { ValidationError } from '../core/errors.js';
import type { JsonObject } from '../core/json-object.js';
import type { RequestContext } from '../core/request-context.js';
import type { AddressPolicy } from '../webhooks/address-policy.js';
import type { EndpointLookup } from '../webhooks/webhook-dispatcher.js';
import type { ResolvedEndpoint } from '../webhooks/webhook-endpoint.js';
import { WebhookSigner } from '../webhooks/webhook-signer.js';
import type { NewWebhookDelivery } from '../webhooks/webhook-types.js';
import { checkCallbackUrl, checkSecret, verifyCallback } from './callback-check.js';
import type { EventReader, Subscriber } from './event-reader.js';
import type { EventRegistry, EventTypeEntry } from './event-registry.js';
import { EventForbiddenError, EventLimitError, EventNotFoundError } from './events-errors.js';
import type { EventSubscription, IMcpEventsStore, StoredOccurrence } from './events-store.js';
import type { EventsConfig } from '../config/sections/events.js';

export interface WebhookSettings extends Pick<EventsConfig['webhooks'], 'defaultTtlMs' | 'minTtlMs' | 'maxTtlMs' | 'allowNoExpiry' | 'verifyTimeoutMs'> {
  maxSubscriptionsPerPrincipal: number;
  /** Occurrences queued at most when a subscribe replays from a cursor. */
  maxReplay: number;
  /** Timeout of one delivery attempt. */
  timeoutMs: number;
  userAgent: string;
}

/** How long a callback URL's consent is remembered per principal on this instance. */
const VERIFIED_MS = 3_600_000;

export class EventWebhooks {
  private readonly verified = new Map<string, number>();

  constructor(
    private readonly store: IMcpEventsStore,
    private readonly registry: EventRegistry,
    private readonly reader: EventReader,
    private readonly policy: AddressPolicy,
    private readonly settings: WebhookSettings,
    private readonly queued: () => void,
  ) {}

  /** `events/subscribe`: creates or refreshes the caller's subscription; `{ id, refreshBefore, cursor, truncated }`. */
  async subscribe(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const auth = this.principalOf(ctx);
    const entry = this.registry.forMode(String(params.name), 'webhook');
    const args = this.registry.checkArguments(entry, params.arguments);
    const delivery = (params.delivery ?? {}) as JsonObject;
    if (delivery.mode !== 'webhook') throw new ValidationError('Invalid delivery.mode: only "webhook" is subscribed to with events/subscribe', { field: 'delivery.mode', reason: 'must be "webhook"' });
    const url = checkCallbackUrl(delivery.url, this.policy);
    const secret = checkSecret(delivery.secret);
    const id = subscriptionId(auth.subject, url.href, entry.def.name, args);
    const now = Date.now();
    const expiresAt = this.grant(params.ttlMs, now);
    const signer = new WebhookSigner(secret, 'delivery.secret');
    const consentKey = `${auth.subject}\0${url.href}`;
    const existing = await this.store.subscription(id);
    const live = existing !== undefined && (existing.expiresAt === null || existing.expiresAt > now);
    if (!live && (this.verified.get(consentKey) ?? 0) <= now) {
      await verifyCallback({ url, subscriptionId: id, signer, policy: this.policy, timeoutMs: this.settings.verifyTimeoutMs, userAgent: this.settings.userAgent });
      this.verified.set(consentKey, now + VERIFIED_MS);
    }
    const sub: EventSubscription = { id, principal: auth.subject, auth, name: entry.def.name, arguments: args, url: url.href, secret, expiresAt, createdAt: now, updatedAt: now };
    const saved = await this.store.saveSubscription(sub, this.settings.maxSubscriptionsPerPrincipal);
    if (saved === 'limit') throw new EventLimitError('subscriptions', this.settings.maxSubscriptionsPerPrincipal);
    const subscriber = this.subscriber(entry, sub);
    let truncated = false;
    let position = await this.store.head(entry.def.name);
    // A cursor replays into a new (or lapsed) subscription; on a live one it changes nothing: delivery goes on.
    if (saved === 'created' && params.cursor !== null && params.cursor !== undefined) {
      const start = await this.reader.start(subscriber, params.cursor, typeof params.maxAgeMs === 'number' ? params.maxAgeMs : undefined);
      truncated = start.truncated;
      const batch = await this.reader.next(subscriber, start, this.settings.maxReplay);
      await this.store.queue(batch.events.map((o) => this.delivery(subscriber, sub, o, now)));
      if (batch.events.length > 0) this.queued();
      truncated ||= batch.more;
      position = batch.more ? (batch.events[batch.events.length - 1]?.seq ?? position) : batch.position;
    }
    // A safe watermark: never past an occurrence still waiting for delivery to this subscription.
    const floor = await this.store.pendingFloor(id);
    if (floor !== undefined) position = Math.min(position, floor - 1);
    return {
      id,
      refreshBefore: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      cursor: this.reader.cursor(subscriber, position),
      truncated,
    };
  }

  /** `events/unsubscribe`: ends the caller's subscription with that key; -32011 (`subscription`) when it holds none. */
  async unsubscribe(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const auth = this.principalOf(ctx);
    const entry = this.registry.get(String(params.name));
    const delivery = (params.delivery ?? {}) as JsonObject;
    if (typeof delivery.url !== 'string') throw new ValidationError('Invalid delivery.url: the URL of the subscription is required', { field: 'delivery.url', reason: 'is required' });
    let href: string;
    try {
      href = new URL(delivery.url).href;
    } catch {
      throw new ValidationError('Invalid delivery.url: not a URL', { field: 'delivery.url', reason: 'not a URL' });
    }
    const id = subscriptionId(auth.subject, href, entry.def.name, (params.arguments ?? {}) as JsonObject);
    const held = await this.store.subscription(id);
    const removed = await this.store.removeSubscription(id);
    // A lapsed subscription is gone already, whether or not the sweep has deleted it yet.
    if (!removed || !held || (held.expiresAt !== null && held.expiresAt <= Date.now())) throw new EventNotFoundError('subscription', entry.def.name);
    return {};
  }

  /** The deliveries of one occurrence: to each live subscription of its type whose subscriber may see it and whose arguments match. */
  fanout(entry: EventTypeEntry, subs: readonly EventSubscription[], o: StoredOccurrence, now: number): NewWebhookDelivery[] {
    const out: NewWebhookDelivery[] = [];
    for (const sub of subs) {
      const subscriber = this.subscriber(entry, sub);
      if (!this.registry.mayReceive(entry, sub.auth)) continue;
      if (!this.registry.matches(entry, sub.arguments, o.data, subscriber.match)) continue;
      out.push(this.delivery(subscriber, sub, o, now));
    }
    return out;
  }

  /** Where the dispatcher sends a subscription's deliveries (found in the store, so any instance delivers any subscription's). */
  lookup(): EndpointLookup {
    return {
      get: async (id: string): Promise<ResolvedEndpoint | undefined> => {
        const sub = await this.store.subscription(id);
        if (!sub || (sub.expiresAt !== null && sub.expiresAt <= Date.now())) return undefined;
        return { name: id, url: new URL(sub.url), signer: new WebhookSigner(sub.secret, 'delivery.secret'), timeoutMs: this.settings.timeoutMs, headers: { 'x-mcp-subscription-id': id }, takes: () => true };
      },
    };
  }

  private delivery(subscriber: Subscriber, sub: EventSubscription, o: StoredOccurrence, now: number): NewWebhookDelivery {
    // webhook-id is the eventId (the receiver checks it against the body); one row per (subscription, eventId).
    return { id: o.eventId, endpoint: sub.id, type: o.name, body: JSON.stringify(this.reader.occurrence(subscriber, o, true)), now, seq: o.seq };
  }

  private subscriber(entry: EventTypeEntry, sub: EventSubscription): Subscriber {
    return { entry, args: sub.arguments, principal: sub.principal, match: { auth: sub.auth, mode: 'webhook' } };
  }

  private principalOf(ctx: RequestContext): EventSubscription['auth'] {
    if (!ctx.auth?.subject) throw new EventForbiddenError('Webhook subscriptions need an authenticated caller', { reason: 'unauthenticated' });
    return { subject: ctx.auth.subject, scopes: [...ctx.auth.scopes], groups: [...ctx.auth.groups] };
  }

  /** The expiry granted for a suggested ttlMs (absent: the default; null: none, where allowed; else clamped). */
  private grant(ttlMs: unknown, now: number): number | null {
    const s = this.settings;
    if (ttlMs === null && s.allowNoExpiry && this.store.durable) return null;
    if (typeof ttlMs !== 'number') return now + s.defaultTtlMs;
    return now + Math.min(s.maxTtlMs, Math.max(s.minTtlMs, ttlMs));
  }
}

/** The subscription id: deterministic over (principal, url, name, canonical arguments). */
export function subscriptionId(principal: string, url: string, name: string, args: JsonObject): string {
  const key = createHash('sha256').update(`${principal}\0${url}\0${name}\0${compactCanonicalJson(args)}`).digest('hex');
  return `sub_${key.slice(0, 32)}`;
}
