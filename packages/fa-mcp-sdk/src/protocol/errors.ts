/** Maps the core's error family onto the SDK's protocol error, in one place. */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CoreLogger } from '../core/core.js';
import { loggedWireError } from './error-log.js';

export function toProtocolError(err: unknown, requestId: string, logger: CoreLogger): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const wire = loggedWireError(err, requestId, logger);
  return new ProtocolError(wire.code, wire.message, wire.data);
}
