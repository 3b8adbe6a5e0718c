/**
 * A refusal of `POST /oauth/token`, as RFC 6749 §5.2 answers it: the OAuth error code, a
 * description that names the check that failed (never a secret, never the assertion), the reason
 * of the auth-failure metric, and the facts of the refusal an audit record is made from.
 */
import type { Response } from 'express';

export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'temporarily_unavailable'
  | 'server_error';

const STATUS: Partial<Record<TokenErrorCode, number>> = { invalid_client: 401, temporarily_unavailable: 503, server_error: 500 };

/** What a refusal is made of, for the one hook every refusal goes through (metric, debug channel, audit). */
export interface TokenRefusalDetail extends Record<string, unknown> {
  endpoint: '/oauth/token';
  /** The grant asked for (`grant_type`), when the request got that far. */
  grantType?: string;
  error: TokenErrorCode;
  /** The check that failed: `client_secret`, `typ`, `iss`, `signature`, `aud`, `resource`, `client_id`, `exp`, `jti`, `scope` … */
  check: string;
  description: string;
}

export class TokenRefusal extends Error {
  /**
   * @param reason the label of `mcp_auth_failures_total` (AUTH_FAILURE_REASONS)
   * @param facts what is known and safe to record: the client id, the IdP issuer, the subject and `jti` of a verified ID-JAG
   */
  constructor(
    readonly error: TokenErrorCode,
    message: string,
    readonly reason: string,
    readonly check: string,
    readonly facts: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'TokenRefusal';
  }

  get status(): number {
    return STATUS[this.error] ?? 400;
  }

  /** The same refusal with more facts (the caller knows the client, the grant …). */
  withFacts(facts: Record<string, unknown>): TokenRefusal {
    return new TokenRefusal(this.error, this.message, this.reason, this.check, { ...facts, ...this.facts });
  }

  detail(grantType?: string): TokenRefusalDetail {
    return { endpoint: '/oauth/token', ...(grantType ? { grantType } : {}), error: this.error, check: this.check, description: this.message, ...this.facts };
  }
}

/** Sends the refusal: `{ error, error_description }`, and a Basic challenge with `invalid_client` (RFC 6749 §5.2). */
export function sendTokenRefusal(res: Response, refusal: TokenRefusal, realm: string): void {
  if (res.headersSent) return;
  res.setHeader('Cache-Control', 'no-store');
  if (refusal.error === 'invalid_client') res.setHeader('WWW-Authenticate', `Basic realm="${realm.replace(/[\\"]/g, '')}", charset="UTF-8"`);
  res.status(refusal.status).json({ error: refusal.error, error_description: refusal.message });
}
