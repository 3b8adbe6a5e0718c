/**
 * The one interface of authentication: a verifier turns credentials into an
 * AuthInfo. Every scheme (static tokens, Basic, each JWT mode, a consumer's
 * validator) is one small implementation.
 */
import type { AuthInfo } from '../core/request-context.js';

export type { AuthInfo };

export type Credentials =
  | { scheme: 'bearer'; token: string; from: 'header' | 'query' }
  | { scheme: 'basic'; username: string; password: string };

export interface Verifier {
  /** Short name for logs and the `use://auth` description. */
  readonly name: string;
  /**
   * Accepts only credentials signed with a key the caller cannot guess (the JWT
   * modes): the failed-authentication throttle lets them through while blocked.
   */
  readonly signed?: boolean;
  /**
   * The caller's identity; `undefined` when these credentials are not of this
   * verifier's kind (another verifier may take them); throws `AuthError` when
   * they are of its kind and fail.
   */
  verify(credentials: Credentials): Promise<AuthInfo | undefined>;
}

/** What a consumer's validator sees of a request (HTTP header names lower-cased). */
export interface AuthRequestInfo {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  remoteAddress?: string;
  /** The credentials found in the request, if any. */
  credentials?: Credentials;
  /** The framework request object (an express Request on the built-in server). */
  raw?: unknown;
}

/**
 * A consumer's own check, tried after the built-in schemes did not accept the
 * request: return the caller's identity, or `undefined`/`false` to refuse.
 * Throw an `AuthError` to refuse with a specific reason.
 */
export type CustomAuthValidator = (request: AuthRequestInfo) => Promise<AuthInfo | undefined | false> | AuthInfo | undefined | false;

/** A dynamic revocation check (a database of revoked users, say), run on every authenticated request. */
export type RevocationCheck = (auth: AuthInfo) => boolean | Promise<boolean>;
