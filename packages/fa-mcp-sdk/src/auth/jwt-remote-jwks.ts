/**
 * The key resolver of the remoteJwks mode: jose's remote JWKS with caching (a
 * fetched set is used for `jwksCacheMaxAgeMs`), a refetch cooldown (an unknown
 * `kid` refetches at most once per `jwksCooldownMs`, so a flood of forged kids
 * cannot hammer the issuer) and a fetch time limit. Key rotation works by the
 * unknown-kid refetch. A failure to reach the issuer is a 503, not the
 * caller's fault.
 */
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { UpstreamUnavailableError } from '../core/errors.js';

export interface RemoteJwksOptions {
  url: string;
  cooldownMs: number;
  cacheMaxAgeMs: number;
  timeoutMs: number;
}

/** The URL was checked at start (jwksUrlIssue in build-schemes.ts): https, or http on loopback outside production. */
export function remoteJwksResolver(opts: RemoteJwksOptions): JWTVerifyGetKey {
  const url = new URL(opts.url);
  const jwks = createRemoteJWKSet(url, {
    cooldownDuration: opts.cooldownMs,
    cacheMaxAge: opts.cacheMaxAgeMs,
    timeoutDuration: opts.timeoutMs,
  });
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (err) {
      // About the token (no key fits it): the caller's problem. Anything else (timeout, network, a
      // non-200 answer, an invalid set): the issuer's.
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
      if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) throw err;
      throw new UpstreamUnavailableError('The token issuer keys cannot be fetched right now; try again later');
    }
  };
}
