/**
 * The shapes of outbound webhooks: what a handler calls (`IWebhookSender`),
 * one delivery in the outbox (`WebhookDelivery`), and the outbox interface
 * its two stores (memory, PostgreSQL) implement.
 */

export type { IWebhookSender, IWebhookSendOptions, IWebhookSendResult } from '../core/webhook-sender.js';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'dead';

/** One event for one endpoint, as the outbox keeps it. */
export interface WebhookDelivery {
  /** The `webhook-id`: the same on every attempt. */
  id: string;
  endpoint: string;
  type: string;
  /** The JSON body, fixed at send time (`{ type, timestamp, data }`). */
  body: string;
  status: WebhookDeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (epoch ms). */
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  /** Why the last attempt failed (no secrets), if it did. */
  lastError?: string;
  /** HTTP status of the last attempt, if there was an answer. */
  lastStatus?: number;
  deliveredAt?: number;
}

export interface NewWebhookDelivery {
  id: string;
  endpoint: string;
  type: string;
  body: string;
  now: number;
  /** Order among the deliveries to one endpoint, for an ordered outbox (default 0). */
  seq?: number;
}

/** How an attempt ended, as the outbox records it. */
export type AttemptRecord =
  | { outcome: 'delivered'; status: number; now: number }
  | { outcome: 'retry'; nextAttemptAt: number; error: string; status?: number; now: number }
  | { outcome: 'dead'; error: string; status?: number; now: number };

export interface IWebhookOutbox {
  /** Adds deliveries; one whose (id, endpoint) exists already is left as it is. Resolves when stored. */
  add(deliveries: NewWebhookDelivery[]): Promise<void>;
  /** Claims up to `limit` due pending deliveries for `owner` until `leaseUntil`; another owner gets other ones. */
  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]>;
  /** Records an attempt of a claimed delivery and releases the claim; false when the claim was lost. */
  record(id: string, endpoint: string, owner: string, attempt: AttemptRecord): Promise<boolean>;
  /** Deliveries by status, newest first. */
  list(status: WebhookDeliveryStatus, limit: number): Promise<WebhookDelivery[]>;
  /** Puts dead deliveries back as pending, due now, attempts reset (all dead ones when `ids` is absent). Returns how many. */
  resend(now: number, ids?: string[]): Promise<number>;
  /** Deliveries by status (the outbox depth is `pending`). */
  countByStatus(): Promise<Record<WebhookDeliveryStatus, number>>;
  /** Deletes delivered deliveries older than `before`. */
  sweep(before: number): Promise<void>;
  /** Deletes the pending deliveries to one endpoint (a webhook subscription that ended); returns how many. */
  dropPending?(endpoint: string): Promise<number>;
  close(): Promise<void>;
}
