/**
 * Error answers of the REST routes, mapped like the MCP endpoint maps them:
 * the error family keeps its HTTP status, code and data; anything else is a
 * sanitized 500 naming the request id (the original goes to the log).
 */
import type { Response } from 'express';
import type { CoreLogger } from '../core/core.js';
import { isExposedMcpError } from '../core/error-guards.js';
import { toWireError } from '../core/error-mapping.js';

export interface RestErrorBody {
  error: { code: number; message: string; data?: Record<string, unknown> };
  requestId: string;
}

export function sendRestError(res: Response, err: unknown, requestId: string, logger: CoreLogger): void {
  if (!isExposedMcpError(err)) logger.error({ err, requestId }, 'REST route failed');
  const wire = toWireError(err, requestId);
  const retryAfter = wire.data?.retryAfter;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  if (res.headersSent) {
    res.end();
    return;
  }
  const body: RestErrorBody = { error: { code: wire.code, message: wire.message, ...(wire.data ? { data: wire.data } : {}) }, requestId };
  res.status(wire.httpStatus).json(body);
}
