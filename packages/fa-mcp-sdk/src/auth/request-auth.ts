/**
 * Where the verified caller travels with an HTTP request: on the request
 * object itself (and `res.locals.auth`), for the MCP routes and for the
 * consumer's own handlers behind `createAuthMW()`.
 */
import type { Request, Response } from 'express';
import type { HttpRequest } from '../core/http-types.js';
import type { AuthInfo } from './types.js';

/** A request that went through the authentication middleware (an express request on the built-in server). */
export type AuthenticatedRequest = HttpRequest & { auth?: AuthInfo };

export function setRequestAuth(req: Request, res: Response, auth: AuthInfo): void {
  (req as Request & { auth?: AuthInfo }).auth = auth;
  res.locals.auth = auth;
}

/** The caller verified by the authentication middleware, if any. */
export function getRequestAuth(req: HttpRequest | { auth?: AuthInfo }): AuthInfo | undefined {
  return (req as { auth?: AuthInfo }).auth;
}
