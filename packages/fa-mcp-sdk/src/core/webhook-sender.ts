/**
 * What a tool handler gets as `webhooks` (`IToolHandlerParams.webhooks`): the sending side of
 * outbound webhooks, as the core hands it to handlers. The outbox and its deliveries are
 * webhooks/webhook-types.ts.
 */

export interface IWebhookSendOptions {
  /**
   * Sending the same key again adds nothing (per endpoint); the key becomes
   * the `webhook-id` the receiver sees, so the receiver can drop duplicates
   * too. Default: a fresh `msg_<uuid>`.
   */
  idempotencyKey?: string;
}

export interface IWebhookSendResult {
  /** The `webhook-id` of the event. */
  id: string;
  /** Endpoints the event was queued for (those whose `events` take its type). */
  endpoints: string[];
}

/** What a tool handler gets as `webhooks`: resolves once the event is in the outbox. */
export interface IWebhookSender {
  send(type: string, data: Record<string, unknown>, options?: IWebhookSendOptions): Promise<IWebhookSendResult>;
}
