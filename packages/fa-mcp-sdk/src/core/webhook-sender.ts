/**
 * What a tool handler gets as `webhooks` (`IToolHandlerParams.webhooks`): the sending side of
 * outbound webhooks, as the core hands it to handlers. The outbox and its deliveries are
 * webhooks/webhook-types.ts.
 */
import type { RequestContext } from './request-context.js';

export interface IWebhookSendOptions {
  /**
   * Sending the same key again adds nothing (per endpoint). Keys belong to
   * the caller: a handler's key counts only for the caller of its request
   * (its auth subject; all unauthenticated callers share one namespace), the
   * server's own events (`handle.webhooks.sender`) have theirs. The
   * `webhook-id` the receiver sees is derived from the caller and the key
   * (`msg_<hash>`), the same on every attempt and every instance, so the
   * receiver can drop duplicates too; the server's own events send the key
   * itself. Default: a fresh `msg_<uuid>`.
   */
  idempotencyKey?: string;
}

export interface IWebhookSendResult {
  /** The `webhook-id` of the event (what the receiver sees). */
  id: string;
  /** Endpoints the event was queued for (those whose `events` take its type). */
  endpoints: string[];
}

/** What a tool handler gets as `webhooks`: resolves once the event is in the outbox. */
export interface IWebhookSender {
  send(type: string, data: Record<string, unknown>, options?: IWebhookSendOptions): Promise<IWebhookSendResult>;
}

/**
 * The sender as the core holds it: `send` for the server's own events, and `forRequest` for a
 * handler, whose idempotency keys belong to the caller of its request.
 */
export interface WebhookSenderSource extends IWebhookSender {
  forRequest(ctx: RequestContext): IWebhookSender;
}
