/**
 * `webhooks.send(type, data, { idempotencyKey })`: fixes the body once
 * (`{ type, timestamp, data }`), queues one delivery per endpoint that takes
 * the type, and resolves when the outbox has stored them.
 */
import { randomUUID } from 'node:crypto';
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

export function createWebhookSender(opts: SenderOptions): IWebhookSender {
  return {
    async send(type, data, options = {}) {
      if (typeof type !== 'string' || !TYPE.test(type)) throw new TypeError('webhooks.send: type must be 1-200 characters of A-Z a-z 0-9 _ . : -');
      if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new TypeError('webhooks.send: data must be an object');
      const key = options.idempotencyKey;
      if (key !== undefined && !KEY.test(key)) throw new TypeError('webhooks.send: idempotencyKey must be 1-256 printable ASCII characters without spaces');
      const id = key ?? `msg_${randomUUID()}`;
      const now = opts.now();
      const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
      const targets = opts.endpoints.filter((e) => e.takes(type)).map((e) => e.name);
      await opts.outbox.add(targets.map((endpoint) => ({ id, endpoint, type, body, now })));
      if (targets.length > 0) opts.queued();
      return { id, endpoints: targets };
    },
  };
}
