/**
 * The state of the Events extension behind one interface, with two stores (memory, PostgreSQL):
 * occurrences in a durable order per event type (a sequence number), the cursor key and epoch,
 * webhook subscriptions, and the outbox their deliveries wait in. An emit is one `append`: the
 * occurrence and the deliveries of the webhook subscriptions it matches are stored together,
 * so what an emit acknowledged survives a crash, and each subscription gets an occurrence once
 * (an outbox row per (subscription, eventId)).
 */
import type { JsonObject } from '../core/json-object.js';
import type { IWebhookOutbox, NewWebhookDelivery } from '../webhooks/webhook-types.js';

export interface NewOccurrence {
  name: string;
  eventId: string;
  /** Epoch ms. */
  timestamp: number;
  data: JsonObject;
}

export interface StoredOccurrence extends NewOccurrence {
  /** Position in the event type's order: 1, 2, 3 … */
  seq: number;
}

/** The subscriber of a webhook subscription, as checked when it subscribed. */
export interface SubscriberAuth {
  subject: string;
  scopes: string[];
  groups: string[];
}

export interface EventSubscription {
  /** Derived from (principal, url, name, arguments): the `X-MCP-Subscription-Id`. */
  id: string;
  principal: string;
  auth: SubscriberAuth;
  name: string;
  arguments: JsonObject;
  url: string;
  /** The client's `whsec_` signing secret. */
  secret: string;
  /** Epoch ms; null: no expiry. */
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Which webhook subscriptions an occurrence goes to, given those of its type (run inside the append). */
export type EventFanout = (subscriptions: readonly EventSubscription[], occurrence: StoredOccurrence) => NewWebhookDelivery[];

export interface AppendOutcome {
  occurrence: StoredOccurrence;
  /** The eventId was stored already: nothing was appended or queued. */
  duplicate: boolean;
  queued: number;
}

export interface IMcpEventsStore {
  /** The store's position space: cursors of another epoch are not its own. */
  readonly epoch: string;
  /** The key cursors are signed with (a PostgreSQL store keeps it in the database, so every instance has it). */
  readonly cursorKey: Buffer;
  /** A memory store's epoch is new at every start (its cursors read as "start over" afterwards); a PostgreSQL store's never changes. */
  readonly durable: boolean;
  /** The deliveries of webhook subscriptions (one endpoint per subscription id, delivered in order). */
  readonly outbox: IWebhookOutbox;
  /** Stores an occurrence and the deliveries `fanout` picks, at once; an eventId stored before returns that occurrence. */
  append(occurrence: NewOccurrence, fanout: EventFanout | undefined): Promise<AppendOutcome>;
  /** The latest position of the type (0: nothing emitted yet). */
  head(name: string): Promise<number>;
  /** The oldest retained position of the type, if any. */
  oldest(name: string): Promise<number | undefined>;
  /** Occurrences after `afterSeq`, oldest first, at most `limit`, none older than `minTimestamp`. */
  read(name: string, afterSeq: number, limit: number, minTimestamp?: number): Promise<StoredOccurrence[]>;
  /** Drops occurrences past the newest `keep` of each type, and those older than `before`. Returns how many. */
  prune(keep: number, before: number): Promise<number>;
  /**
   * Creates or refreshes a subscription (same id: secret and expiry replaced). Refuses (returns
   * `limit`) a new one past `maxPerPrincipal` subscriptions of its principal.
   */
  saveSubscription(subscription: EventSubscription, maxPerPrincipal: number): Promise<'created' | 'refreshed' | 'limit'>;
  subscription(id: string): Promise<EventSubscription | undefined>;
  /** Ends a subscription and drops its pending deliveries; false when there was none. */
  removeSubscription(id: string): Promise<boolean>;
  /** Ends the subscriptions expired at `now` (and their pending deliveries); returns how many. */
  lapse(now: number): Promise<number>;
  /** The lowest position still pending delivery to a subscription (its cursor may not pass it), if any. */
  pendingFloor(id: string): Promise<number | undefined>;
  /** Queues deliveries outside an append (replay at subscribe). */
  queue(deliveries: NewWebhookDelivery[]): Promise<void>;
  close(): Promise<void>;
}
