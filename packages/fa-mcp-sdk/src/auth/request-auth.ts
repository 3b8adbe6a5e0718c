/**
 * Where the verified caller travels with an HTTP request: on the request
 * object itself (and `res.locals.auth`), for the MCP routes and for the
 * consumer's own handlers behind `createAuthMW()`.
 */
import type { Request, Response } from 'express';
import type { AuthInfo } from './types.js';

export type AuthenticatedRequest = Request & { auth?: AuthInfo };

export function setRequestAuth(req: Request, res: Response, auth: AuthInfo): void {
  (req as AuthenticatedRequest).auth = auth;
  res.locals.auth = auth;
}

/** The caller verified by the authentication middleware, if any. */
export function getRequestAuth(req: Request | { auth?: AuthInfo }): AuthInfo | undefined {
  return (req as AuthenticatedRequest).auth;
}
