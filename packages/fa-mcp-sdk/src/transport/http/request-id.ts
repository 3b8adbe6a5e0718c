/**
 * Request id for every HTTP request.
 *
 * An incoming `X-Request-Id` is reused only when it is a short token of safe
 * characters (so it cannot inject anything into logs or headers); otherwise a
 * fresh UUID is minted. The id is set on the response before the route runs,
 * so error answers carry it too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id travels on the request itself: a WeakMap entry per request would burden the collector. */
const ID = Symbol('fa-mcp.requestId');
type WithId = { [ID]?: string };

/** The incoming id when it is acceptable, otherwise undefined. */
export function acceptRequestId(value: string | string[] | undefined): string | undefined {
  // A repeated header arrives as an array (or comma-joined): both are refused.
  if (typeof value !== 'string') return undefined;
  return ACCEPTED_ID.test(value) ? value : undefined;
}

/**
 * Gives the request its id (the accepted incoming one, or a fresh one), kept on the request and in
 * express's `res.locals`; the caller sets it on the response (request-front.ts).
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const id = acceptRequestId(req.headers['x-request-id']) ?? randomUUID();
  (req as WithId)[ID] = id;
  const locals = (res as { locals?: Record<string, unknown> }).locals;
  if (locals) locals.requestId = id;
  return id;
}

/** Gives the request its id (`requestIdOf`) and sets it on the response. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req, res);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    assignRequestId(req, res);
    next();
  };
}

/**
 * The id given to this request by `requestIdMiddleware()`. A request that did
 * not pass through the middleware gets a fresh id on first call, kept for
 * later calls, so callers always receive a stable string.
 */
export function getRequestId(req: IncomingMessage): string {
  let id = (req as WithId)[ID];
  if (id === undefined) {
    id = randomUUID();
    (req as WithId)[ID] = id;
  }
  return id;
}
