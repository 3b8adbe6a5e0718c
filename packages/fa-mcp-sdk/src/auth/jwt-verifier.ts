/**
 * Verifies a signed JWT (the embedded, localKey and remoteJwks modes differ
 * only in where the key comes from): an explicit algorithm allow-list,
 * `exp` required, `iss`/`aud`/`nbf` checked with a bounded clock skew.
 */
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { KeyObject } from 'node:crypto';
import { authInfoFromClaims, type ClaimNames } from './jwt-claims.js';
import { toAuthError } from './jwt-errors.js';
import type { Credentials, Verifier } from './types.js';

/** Three dot-separated base64url parts (the third may be empty: an unsigned token, refused below). */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export interface JwtVerifierOptions {
  name: string;
  key: KeyObject | JWTVerifyGetKey;
  algorithms: string[];
  issuer?: string;
  audience?: string;
  clockToleranceSec: number;
  claimNames: ClaimNames;
}

export function jwtVerifier(opts: JwtVerifierOptions): Verifier {
  const verifyOptions = {
    algorithms: opts.algorithms,
    clockTolerance: opts.clockToleranceSec,
    requiredClaims: ['exp'],
    ...(opts.issuer ? { issuer: opts.issuer } : {}),
    ...(opts.audience ? { audience: opts.audience } : {}),
  };
  return {
    name: opts.name,
    async verify(credentials: Credentials) {
      if (credentials.scheme !== 'bearer' || !JWT_SHAPE.test(credentials.token)) return undefined;
      try {
        // The two overloads of jwtVerify (a key or a key resolver) differ only in the key's type.
        const { payload } =
          typeof opts.key === 'function'
            ? await jwtVerify(credentials.token, opts.key, verifyOptions)
            : await jwtVerify(credentials.token, opts.key, verifyOptions);
        return authInfoFromClaims(payload as Record<string, unknown>, opts.claimNames);
      } catch (err) {
        throw toAuthError(err);
      }
    },
  };
}
