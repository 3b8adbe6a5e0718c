/**
 * `webhooks.send(type, data, { idempotencyKey })`: fixes the body once
 * (`{ type, timestamp, data }`), queues one delivery per endpoint that takes
 * the type, and resolves when the outbox has stored them.
 *
 * Idempotency keys belong to whoever sends. A tool handler's sender
 * (`forRequest`) is scoped to the caller of its request: its auth subject, or
 * one namespace for every unauthenticated caller (an address is no identity:
 * it changes between retries and is shared behind a NAT). The event's
 * `webhook-id` is derived from that namespace and the key, so another caller
 * using the same key neither suppresses the event in the outbox nor collides
 * at the receiver, which drops duplicates by `webhook-id` (Standard Webhooks).
 * The server's own events (`send`, task events) keep their key as the id.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RequestContext } from '../core/request-context.js';
import type { IWebhookSendOptions, IWebhookSendResult, WebhookSenderSource } from '../core/webhook-sender.js';
import type { ResolvedEndpoint } from './webhook-endpoint.js';
import type { IWebhookOutbox, IWebhookSender } from './webhook-types.js';

export interface SenderOptions {
  outbox: IWebhookOutbox;
  endpoints: ResolvedEndpoint[];
  now: () => number;
  /** Called after deliveries were stored (wakes the dispatcher). */
  queued: () => void;
}

const TYPE = /^[A-Za-z0-9_.:-]{1,200}$/;
// Printable ASCII without spaces: it is sent as the webhook-id header and signed.
const KEY = /^[\x21-\x7e]{1,256}$/;
/** The shape of a caller's derived id: a key of the server's own may not take it. */
const DERIVED_ID = /^msg_[A-Za-z0-9_-]{43}$/;

/** Whose keys a request's events use: `sub:<subject>` when authenticated, else the shared `anonymous`. */
export function callerNamespace(ctx: RequestContext): string {
  const subject = ctx.auth?.subject;
  return subject ? `sub:${subject}` : 'anonymous';
}

/** The `webhook-id` of a caller's keyed event: the same for the same caller and key everywhere, distinct between callers. */
export function callerEventId(namespace: string, key: string): string {
  return `msg_${createHash('sha256').update(JSON.stringify([namespace, key])).digest('base64url')}`;
}

type IdOf = (key: string) => string;

export function createWebhookSender(opts: SenderOptions): WebhookSenderSource {
  const queue = async (type: string, data: Record<string, unknown>, options: IWebhookSendOptions, idOf: IdOf): Promise<IWebhookSendResult> => {
    if (typeof type !== 'string' || !TYPE.test(type)) throw new TypeError('webhooks.send: type must be 1-200 characters of A-Z a-z 0-9 _ . : -');
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new TypeError('webhooks.send: data must be an object');
    const key = options.idempotencyKey;
    if (key !== undefined && !KEY.test(key)) throw new TypeError('webhooks.send: idempotencyKey must be 1-256 printable ASCII characters without spaces');
    const id = key === undefined ? `msg_${randomUUID()}` : idOf(key);
    const now = opts.now();
    const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
    const targets = opts.endpoints.filter((e) => e.takes(type)).map((e) => e.name);
    await opts.outbox.add(targets.map((endpoint) => ({ id, endpoint, type, body, now })));
    if (targets.length > 0) opts.queued();
    return { id, endpoints: targets };
  };
  const serverId: IdOf = (key) => {
    if (DERIVED_ID.test(key)) throw new TypeError('webhooks.send: an idempotencyKey of the form msg_<43 characters> is reserved for the events of callers');
    return key;
  };
  return {
    send: (type, data, options = {}) => queue(type, data, options, serverId),
    forRequest(ctx): IWebhookSender {
      return { send: (type, data, options = {}) => queue(type, data, options, (key) => callerEventId(callerNamespace(ctx), key)) };
    },
  };
}
