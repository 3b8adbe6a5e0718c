/**
 * The one way a handler's error becomes what the client is told: logged as its
 * kind deserves (a cancellation at info, an unexpected error at error, the
 * family's exposed errors not at all), then mapped to the wire. The SDK path wraps it
 * in the SDK's ProtocolError (errors.ts); stdio's cold front writes it itself.
 */
import { RequestCancelledError } from '../core/errors.js';
import { isExposedMcpError } from '../core/error-guards.js';
import { toWireError, type WireErrorInfo } from '../core/error-mapping.js';
import type { CoreLogger } from '../core/core.js';

export function loggedWireError(err: unknown, requestId: string, logger: CoreLogger): WireErrorInfo {
  if (err instanceof RequestCancelledError) {
    logger.info({ requestId, reason: err.reason }, 'request cancelled by the client');
  } else if (!isExposedMcpError(err)) {
    logger.error({ err, requestId }, 'unexpected error while handling a request');
  }
  return toWireError(err, requestId);
}
