/** Maps the core's error family onto the SDK's protocol error, in one place. */
import { ProtocolError } from '@modelcontextprotocol/server';
import { BaseMcpError, RequestCancelledError } from '../core/errors.js';
import { toWireError } from '../core/error-mapping.js';
import type { CoreLogger } from '../core/core.js';

export function toProtocolError(err: unknown, requestId: string, logger: CoreLogger): ProtocolError {
  if (err instanceof ProtocolError) return err;
  if (err instanceof RequestCancelledError) {
    logger.info({ requestId, reason: err.reason }, 'request cancelled by the client');
  } else if (!(err instanceof BaseMcpError)) {
    logger.error({ err, requestId }, 'unexpected error while handling a request');
  }
  const wire = toWireError(err, requestId);
  return new ProtocolError(wire.code, wire.message, wire.data);
}
