/**
 * The HTTP authentication middleware: in front of /mcp, /sse and /messages,
 * and, through `createAuthMW()`, in front of a consumer's own routes. It
 * authenticates the request, checks route-level scopes and groups, and leaves
 * the caller on the request for the protocol layer. A refused request never
 * reaches the handler.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UpstreamUnavailableError } from '../core/errors.js';
import { assertAccess } from './access-check.js';
import { AuthError } from './auth-error.js';
import type { Authenticator } from './authenticator.js';
import { sendAuthRefusal, type ChallengeContext, type RefusalBody } from './challenge.js';
import { setRequestAuth } from './request-auth.js';
import type { AuthInfo, AuthRequestInfo } from './types.js';

export interface AuthMWOptions {
  /** Scopes the caller must hold on these routes (all of them). */
  requiredScopes?: string[];
  /** Groups of which the caller must be in at least one. */
  requiredGroups?: string[];
  /** Body of a refusal: OAuth-style `{ error, error_description }` (default) or a JSON-RPC error. */
  body?: RefusalBody;
}

export interface GuardContext {
  authenticator: Authenticator;
  challenge(req: Request): ChallengeContext;
  /** Told of every refusal (the auth-failure metric), with a reason of AUTH_FAILURE_REASONS. */
  onRefused?: (reason: string, detail: Record<string, unknown>) => void;
}

export function requestInfo(req: Request): AuthRequestInfo {
  return {
    method: req.method,
    path: req.originalUrl.split('?')[0] ?? '/',
    headers: req.headers,
    query: (req.query ?? {}) as Record<string, unknown>,
    ...(req.ip ? { remoteAddress: req.ip } : {}),
    raw: req,
  };
}

export function authMiddleware(ctx: GuardContext, opts: AuthMWOptions = {}): RequestHandler {
  const requirements = { requiredScopes: opts.requiredScopes ?? [], requiredGroups: opts.requiredGroups ?? [] };
  const body = opts.body ?? 'oauth';
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next(); // CORS preflights carry no credentials
    void (async () => {
      let auth: AuthInfo;
      try {
        auth = await ctx.authenticator.authenticate(requestInfo(req));
        assertAccess('route', req.baseUrl || req.path, requirements, { auth, transport: 'http' });
      } catch (err) {
        ctx.onRefused?.(failureReason(err), { path: req.originalUrl.split('?')[0], ...(err instanceof AuthError ? { kind: err.kind } : {}) });
        sendAuthRefusal(res, err, ctx.challenge(req), body);
        return;
      }
      setRequestAuth(req, res, auth);
      next();
    })();
  };
}

export function failureReason(err: unknown): string {
  if (err instanceof AuthError) return err.reason;
  if (err instanceof UpstreamUnavailableError) return 'jwks_unavailable';
  return 'other';
}
