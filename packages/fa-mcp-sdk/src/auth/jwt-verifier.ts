/**
 * Verifies a signed JWT (the embedded, localKey and remoteJwks modes differ
 * only in where the key comes from): an explicit algorithm allow-list,
 * `exp` required, `iss`/`aud`/`nbf` checked with a bounded clock skew, and an
 * `iat` in the future refused with the same skew (jose checks `iat` only
 * against a maximum token age, which this verifier does not set).
 *
 * A verified token is remembered for `verifyCacheMs` (never past its `exp`),
 * so a client sending the same token on every request pays for one signature
 * check, not one per request. Revocation is checked by the authenticator on
 * every request either way.
 */
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { KeyObject } from 'node:crypto';
import { authInfoFromClaims, type ClaimNames } from './jwt-claims.js';
import { AuthError } from '../core/auth-error.js';
import { toAuthError } from './jwt-errors.js';
import type { AuthInfo, Credentials, Verifier } from './types.js';

/** Three dot-separated base64url parts (the third may be empty: an unsigned token, refused below). */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export interface JwtVerifierOptions {
  name: string;
  key: KeyObject | JWTVerifyGetKey;
  algorithms: string[];
  issuer?: string;
  /** The accepted `aud`: one value, or several of which the token must name one. */
  audience?: string | string[];
  clockToleranceSec: number;
  /** How long a verified token is taken as verified again, in ms; 0 verifies every time. */
  verifyCacheMs?: number;
  claimNames: ClaimNames;
}

const MAX_REMEMBERED = 10_000;

export function jwtVerifier(opts: JwtVerifierOptions): Verifier {
  const verifyOptions = {
    algorithms: opts.algorithms,
    clockTolerance: opts.clockToleranceSec,
    requiredClaims: ['exp'],
    ...(opts.issuer ? { issuer: opts.issuer } : {}),
    ...(opts.audience ? { audience: opts.audience } : {}),
  };
  const cacheMs = opts.verifyCacheMs ?? 0;
  // The identity a token's claims give is remembered with them (it depends on nothing else); each request gets its own copy.
  const verified = new Map<string, { auth: AuthInfo; until: number }>();
  const remember = (token: string, claims: Record<string, unknown>, auth: AuthInfo) => {
    if (cacheMs <= 0 || typeof claims.exp !== 'number') return;
    if (verified.size >= MAX_REMEMBERED) verified.clear();
    verified.set(token, { auth: copyOf(auth), until: Math.min(Date.now() + cacheMs, claims.exp * 1000) });
  };
  return {
    name: opts.name,
    signed: true,
    async verify(credentials: Credentials) {
      if (credentials.scheme !== 'bearer') return undefined;
      // A remembered token had the JWT shape when it was verified.
      const known = verified.get(credentials.token);
      if (known) {
        if (known.until > Date.now()) return copyOf(known.auth);
        verified.delete(credentials.token);
      }
      if (!JWT_SHAPE.test(credentials.token)) return undefined;
      let claims: Record<string, unknown>;
      try {
        // The two overloads of jwtVerify (a key or a key resolver) differ only in the key's type.
        const { payload } =
          typeof opts.key === 'function'
            ? await jwtVerify(credentials.token, opts.key, verifyOptions)
            : await jwtVerify(credentials.token, opts.key, verifyOptions);
        claims = payload as Record<string, unknown>;
        // jose has checked that a present iat is a number.
        if (typeof claims.iat === 'number' && claims.iat > Date.now() / 1000 + opts.clockToleranceSec) {
          throw new AuthError('invalid_token', 'The token was issued in the future', { reason: 'not_yet_valid' });
        }
      } catch (err) {
        throw toAuthError(err);
      }
      const auth = authInfoFromClaims(claims, opts.claimNames);
      remember(credentials.token, claims, auth);
      return auth;
    },
  };
}

/** A copy a request may change without changing the next request's identity (as authInfoFromClaims makes). */
function copyOf(auth: AuthInfo): AuthInfo {
  return { subject: auth.subject, scopes: [...auth.scopes], groups: [...auth.groups], claims: { ...auth.claims } };
}
