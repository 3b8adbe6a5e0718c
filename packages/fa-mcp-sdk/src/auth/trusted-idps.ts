/**
 * The enterprise identity providers of `webServer.auth.oauth.trustedIdps`,
 * checked at start and made ready to verify their ID-JAGs: each with the
 * remote key set of its `jwksUrl` (cache, refetch cooldown and time limit of
 * jwt-remote-jwks.ts, so key rotation and outages are handled as in the
 * remoteJwks mode), an asymmetric algorithm allow-list, the clients it may
 * act for, and the names of the claims that carry the subject, e-mail and groups.
 */
import type { JWTVerifyGetKey } from 'jose';
import type { AuthConfig } from '../config/sections/auth-config.js';
import { allowedAlgorithms } from './jwt-keys.js';

export interface TrustedIdp {
  issuer: string;
  keys: JWTVerifyGetKey;
  algorithms: string[];
  /** The oauth.clients this IdP may issue ID-JAGs for. */
  clientIds: ReadonlySet<string>;
  claims: { subject: string; email: string; groups: string };
}

const DEFAULT_ALGORITHMS = ['RS256', 'ES256'];

/**
 * What is wrong with the trusted IdPs (keys relative to `webServer.auth.`), each naming the key.
 * `jwksUrlIssue` is build-schemes.ts's check of a JWKS URL (https; http on loopback outside production).
 */
export function trustedIdpIssues(auth: AuthConfig, jwksUrlIssue: (url: string) => string | undefined): string[] {
  const { trustedIdps, clients } = auth.oauth;
  if (trustedIdps.length === 0) return [];
  const issues: string[] = [];
  if (auth.jwtToken.mode !== 'embedded') issues.push('oauth.trustedIdps: needs jwtToken.mode embedded (this server must be the authorization server that takes the ID-JAGs)');
  const known = new Set(clients.map((c) => c.clientId));
  const seen = new Set<string>();
  trustedIdps.forEach((idp, i) => {
    const at = `oauth.trustedIdps[${i}]`;
    if (seen.has(idp.issuer)) issues.push(`${at}.issuer: "${idp.issuer}" is listed twice`);
    seen.add(idp.issuer);
    // The IdP must not take back an ID-JAG it issued (the draft's cross-domain rule): this server is not its own IdP.
    if (idp.issuer === auth.jwtToken.issuer) issues.push(`${at}.issuer: is this server's own issuer (jwtToken.issuer)`);
    const urlIssue = jwksUrlIssue(idp.jwksUrl);
    if (urlIssue) issues.push(`${at}.jwksUrl: ${urlIssue}`);
    try {
      allowedAlgorithms(idp.algorithms ?? [], undefined, DEFAULT_ALGORITHMS);
    } catch (err) {
      issues.push(`${at}.algorithms: ${(err as Error).message.replace(/^webServer\.auth\.jwtToken\.algorithms: /, '')}`);
    }
    for (const id of idp.clientIds) if (!known.has(id)) issues.push(`${at}.clientIds: "${id}" is not a client of oauth.clients (the client authenticates at /oauth/token)`);
  });
  return issues;
}

/** The IdPs ready to verify (call after trustedIdpIssues found nothing). */
export async function buildTrustedIdps(auth: AuthConfig): Promise<TrustedIdp[]> {
  const { remoteJwksResolver } = await import('./jwt-remote-jwks.js');
  const jwt = auth.jwtToken;
  return auth.oauth.trustedIdps.map((idp) => ({
    issuer: idp.issuer,
    keys: remoteJwksResolver({ url: idp.jwksUrl, cooldownMs: jwt.jwksCooldownMs, cacheMaxAgeMs: jwt.jwksCacheMaxAgeMs, timeoutMs: jwt.jwksTimeoutMs }),
    algorithms: allowedAlgorithms(idp.algorithms ?? [], undefined, DEFAULT_ALGORITHMS),
    clientIds: new Set(idp.clientIds),
    claims: { subject: idp.claims?.subject ?? 'sub', email: idp.claims?.email ?? 'email', groups: idp.claims?.groups ?? 'groups' },
  }));
}
