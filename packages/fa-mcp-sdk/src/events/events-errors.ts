/**
 * The refusals of the Events extension, with the codes its specification gives them (the
 * general-purpose codes -32011..-32015; invalid params stay -32602, a ValidationError):
 * each names what was refused in `data`, so a client branches on code and data alone.
 */
import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError } from '../core/errors.js';

export const EVENTS_ERROR_CODES = {
  NOT_FOUND: -32011,
  FORBIDDEN: -32012,
  RESOURCE_EXHAUSTED: -32013,
  UNSUPPORTED: -32014,
  CALLBACK_ENDPOINT: -32015,
} as const;

/** An unknown event type (`data.kind: 'event'`), or no webhook subscription with that key (`'subscription'`). */
export class EventNotFoundError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'EventNotFoundError';
  constructor(kind: 'event' | 'subscription', name: string) {
    super(kind === 'event' ? `Unknown event type: ${name}` : `No webhook subscription of this caller for ${name} with these arguments and URL`, EVENTS_ERROR_CODES.NOT_FOUND, 404, { kind, name });
  }
}

/** The caller may not do this with events (webhook without an authenticated principal). */
export class EventForbiddenError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'EventForbiddenError';
  constructor(message: string, data?: Record<string, unknown>) {
    super(message, EVENTS_ERROR_CODES.FORBIDDEN, 403, data);
  }
}

/** A per-principal limit was reached (`data.limit`, `data.max`). */
export class EventLimitError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'EventLimitError';
  constructor(limit: 'subscriptions' | 'streams', max: number) {
    super(`Too many ${limit === 'subscriptions' ? 'webhook subscriptions' : 'open event streams'} for this caller (at most ${max})`, EVENTS_ERROR_CODES.RESOURCE_EXHAUSTED, 429, { limit, max });
  }
}

/** A delivery mode (or option) the event type does not offer (`data.feature`, `data.value`). */
export class EventUnsupportedError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'EventUnsupportedError';
  constructor(message: string, data: { feature: string; value: unknown }) {
    super(message, EVENTS_ERROR_CODES.UNSUPPORTED, 400, data);
  }
}

export type CallbackFailure = 'connection_refused' | 'timeout' | 'tls_error' | 'http_4xx' | 'http_5xx' | 'challenge_failed';

/** The callback URL did not confirm it wants deliveries (`data.reason`: a category, never the endpoint's answer). */
export class CallbackEndpointError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'CallbackEndpointError';
  constructor(reason: CallbackFailure) {
    super(`The callback endpoint did not accept the verification request (${reason})`, EVENTS_ERROR_CODES.CALLBACK_ENDPOINT, 400, { reason });
  }
}
