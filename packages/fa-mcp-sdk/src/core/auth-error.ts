/**
 * Refusals of the authentication and authorization layer. Each carries the
 * HTTP status and the OAuth error code (RFC 6750) its challenge needs; on the
 * MCP side they are JSON-RPC `-32001` (FORBIDDEN).
 */
import { ERROR_BRAND } from './error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES, type IMcpErrorData } from './errors.js';

export type AuthErrorKind =
  /** No credentials at all: 401 with a bare challenge. */
  | 'missing'
  /** A bearer token was presented and failed (bad signature, expired, revoked …): 401 invalid_token. */
  | 'invalid_token'
  /** Basic or custom credentials failed: 401. */
  | 'invalid_credentials'
  /** Credentials in a place they may not be (a query token while that is off): 400 invalid_request. */
  | 'invalid_request'
  /** Authenticated, but a scope is missing: 403 insufficient_scope. */
  | 'insufficient_scope'
  /** Authenticated, but not in a required group: 403. */
  | 'forbidden';

const STATUS: Record<AuthErrorKind, number> = {
  missing: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  invalid_request: 400,
  insufficient_scope: 403,
  forbidden: 403,
};

const DEFAULT_REASON: Record<AuthErrorKind, string> = {
  missing: 'missing_credentials',
  invalid_token: 'other',
  invalid_credentials: 'other',
  invalid_request: 'malformed',
  insufficient_scope: 'insufficient_scope',
  forbidden: 'forbidden_group',
};

export class AuthError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'AuthError';
  readonly kind: AuthErrorKind;
  /** The scopes the refused request needed (insufficient_scope). */
  readonly requiredScopes: string[];
  /** Why, for the `mcp_auth_failures_total{reason}` metric (expired, wrong_issuer, revoked …). */
  readonly reason: string;
  /** The subject of refused credentials whose signature held (expired, revoked): the failure throttle's user name. Never sent. */
  readonly subject?: string;

  constructor(kind: AuthErrorKind, message: string, extra: { requiredScopes?: string[]; data?: IMcpErrorData; reason?: string; subject?: string } = {}) {
    const requiredScopes = extra.requiredScopes ?? [];
    super(message, MCP_ERROR_CODES.FORBIDDEN, STATUS[kind], {
      error: kind,
      ...(requiredScopes.length ? { requiredScopes, scope: requiredScopes.join(' ') } : {}),
      ...extra.data,
    });
    this.kind = kind;
    this.requiredScopes = requiredScopes;
    this.reason = extra.reason ?? DEFAULT_REASON[kind];
    if (extra.subject !== undefined) this.subject = extra.subject;
  }
}
