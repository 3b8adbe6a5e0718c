/**
 * The one way a handler's error becomes what the client is told: logged as its
 * kind deserves (a cancellation at info, an unexpected error at error, the
 * core's own errors not at all), then mapped to the wire. The SDK path wraps it
 * in the SDK's ProtocolError (errors.ts); stdio's cold front writes it itself.
 */
import { BaseMcpError, RequestCancelledError } from '../core/errors.js';
import { toWireError, type WireError } from '../core/error-mapping.js';
import type { CoreLogger } from '../core/core.js';

export function loggedWireError(err: unknown, requestId: string, logger: CoreLogger): WireError {
  if (err instanceof RequestCancelledError) {
    logger.info({ requestId, reason: err.reason }, 'request cancelled by the client');
  } else if (!(err instanceof BaseMcpError)) {
    logger.error({ err, requestId }, 'unexpected error while handling a request');
  }
  return toWireError(err, requestId);
}
