/**
 * The HTTP side of a refusal: `WWW-Authenticate` challenges (RFC 6750, with
 * `resource_metadata` of RFC 9728) and the response body. A 401 always names
 * the realm; `error="invalid_token"` only when a token was presented and
 * failed; a 403 names the scope that was missing.
 */
import type { Response } from 'express';
import { MCP_ERROR_CODES, RateLimitedError } from '../core/errors.js';
import { isExposedMcpError } from '../core/error-guards.js';
import { AuthError } from '../core/auth-error.js';

export interface ChallengeContext {
  realm: string;
  /** Absolute URL of the protected resource metadata, when it is served. */
  resourceMetadataUrl?: string;
  /** Also offer a Basic challenge (Basic authentication is configured). */
  basic: boolean;
}

const quote = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`;

export function bearerChallenge(err: AuthError | undefined, ctx: ChallengeContext): string {
  const params = [`realm=${quote(ctx.realm)}`];
  if (ctx.resourceMetadataUrl) params.push(`resource_metadata=${quote(ctx.resourceMetadataUrl)}`);
  const code = err?.kind === 'invalid_token' ? 'invalid_token' : err?.kind === 'insufficient_scope' ? 'insufficient_scope' : err?.kind === 'invalid_request' ? 'invalid_request' : undefined;
  if (code && err) {
    params.push(`error=${quote(code)}`, `error_description=${quote(err.message)}`);
    if (code === 'insufficient_scope' && err.requiredScopes.length) params.push(`scope=${quote(err.requiredScopes.join(' '))}`);
  }
  return `Bearer ${params.join(', ')}`;
}

export function challengesFor(err: AuthError, ctx: ChallengeContext): string[] {
  const out = [bearerChallenge(err, ctx)];
  if (ctx.basic && (err.kind === 'missing' || err.kind === 'invalid_credentials')) out.push(`Basic realm=${quote(ctx.realm)}, charset="UTF-8"`);
  return out;
}

export type RefusalBody = 'json-rpc' | 'oauth';

/** Sends the refusal: status, challenges (`Retry-After` for a 429), `Cache-Control: no-store`, and a JSON-RPC or OAuth-style body. */
export function sendAuthRefusal(res: Response, err: unknown, ctx: ChallengeContext, body: RefusalBody): void {
  if (res.headersSent) return;
  res.setHeader('Cache-Control', 'no-store');
  if (err instanceof AuthError) res.setHeader('WWW-Authenticate', challengesFor(err, ctx));
  if (err instanceof RateLimitedError) res.setHeader('Retry-After', String(err.data?.retryAfter ?? 1));
  const known = isExposedMcpError(err);
  const status = known ? err.httpStatus : 500;
  const message = known ? err.message : 'Authentication failed';
  const kind = err instanceof AuthError ? err.kind : known ? 'temporarily_unavailable' : 'server_error';
  if (body === 'oauth') {
    res.status(status).json({ error: kind === 'missing' || kind === 'invalid_credentials' ? 'unauthorized' : kind, error_description: message });
    return;
  }
  const data = known ? err.data : undefined;
  res.status(status).json({ jsonrpc: '2.0', id: null, error: { code: known ? err.code : MCP_ERROR_CODES.INTERNAL_ERROR, message, ...(data ? { data } : {}) } });
}
