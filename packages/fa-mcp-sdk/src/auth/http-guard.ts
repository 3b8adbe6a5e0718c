/**
 * The HTTP authentication middleware: in front of /mcp, /sse and /messages,
 * and, through `createAuthMW()`, in front of a consumer's own routes. It
 * authenticates the request, checks route-level scopes and groups, and leaves
 * the caller on the request for the protocol layer. A refused request never
 * reaches the handler.
 */
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { HttpHandler } from '../core/http-types.js';
import { UpstreamUnavailableError } from '../core/errors.js';
import { assertAccess } from '../core/access-check.js';
import { AuthThrottledError } from './failure-throttle.js';
import { AuthError } from '../core/auth-error.js';
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
  /**
   * A request without credentials passes on as anonymous (no caller on it); credentials that are
   * present are checked as usual and refused when they fail.
   */
  optional?: boolean;
}

export interface GuardContext {
  authenticator: Authenticator;
  challenge(req: Request): ChallengeContext;
  /** Told of every refusal (the auth-failure metric), with a reason of AUTH_FAILURE_REASONS. */
  onRefused?: (reason: string, detail: Record<string, unknown>) => void;
}

export function requestInfo(req: Request): AuthRequestInfo {
  const remoteAddress = req.ip ?? req.socket?.remoteAddress;
  return {
    method: req.method,
    path: (req.originalUrl ?? req.url ?? '/').split('?')[0] ?? '/',
    headers: req.headers,
    query: (req.query ?? {}) as Record<string, unknown>,
    ...(remoteAddress ? { remoteAddress } : {}),
    raw: req,
  };
}

/** A guard that can also run ahead of express, for the HTTP fast lane. */
export type AuthGuard = HttpHandler & {
  /**
   * Authenticates a request that has not entered express yet (its path is
   * `route`); express's turn of this guard then takes this outcome instead
   * of authenticating again, so a refusal is answered and counted once.
   */
  ahead(req: IncomingMessage, route: string): Promise<AuthInfo>;
};

export function authMiddleware(ctx: GuardContext, opts: AuthMWOptions = {}): AuthGuard {
  const requirements = { requiredScopes: opts.requiredScopes ?? [], requiredGroups: opts.requiredGroups ?? [] };
  const body = opts.body ?? 'oauth';
  // The outcome of `ahead` travels on the request itself (a key of this guard's own): most such
  // requests never reach express, and a WeakMap entry per request would burden the collector.
  const outcomeKey = Symbol('fa-mcp.authAhead');
  type WithOutcome = { [outcomeKey]?: Promise<AuthInfo> | undefined };
  // A then, not an async function: one promise per request fewer (this runs for every request).
  const check = (req: Request, route: string): Promise<AuthInfo> => {
    let authenticated: Promise<AuthInfo>;
    try {
      authenticated = ctx.authenticator.authenticate(requestInfo(req));
    } catch (err) {
      return Promise.reject(err);
    }
    return authenticated.then((auth) => {
      assertAccess('route', route, requirements, { auth, transport: 'http' });
      return auth;
    });
  };
  const guard = ((req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next(); // CORS preflights carry no credentials
    void (async () => {
      let auth: AuthInfo;
      try {
        const early = (req as WithOutcome)[outcomeKey];
        if (early) (req as WithOutcome)[outcomeKey] = undefined;
        auth = await (early ?? check(req, req.baseUrl || req.path));
      } catch (err) {
        if (opts.optional && err instanceof AuthError && err.kind === 'missing') return next();
        ctx.onRefused?.(failureReason(err), { path: req.originalUrl.split('?')[0], ...(err instanceof AuthError ? { kind: err.kind } : {}) });
        sendAuthRefusal(res, err, ctx.challenge(req), body);
        return;
      }
      setRequestAuth(req, res, auth);
      next();
    })();
  }) as AuthGuard;
  guard.ahead = (req, route) => {
    const outcome = check(req as Request, route);
    outcome.catch(() => undefined); // observed by express's turn of the guard
    (req as WithOutcome)[outcomeKey] = outcome;
    return outcome;
  };
  return guard;
}

export function failureReason(err: unknown): string {
  if (err instanceof AuthError) return err.reason;
  if (err instanceof UpstreamUnavailableError) return 'jwks_unavailable';
  if (err instanceof AuthThrottledError) return 'throttled';
  return 'other';
}
