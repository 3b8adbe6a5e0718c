/**
 * The client-credentials grant (RFC 6749 §4.4) of `POST /oauth/token`: an
 * authenticated client gets only scopes it is allowed, and a lifetime no longer
 * than its allowance; asking for more is refused, not trimmed.
 */
import type { AuthConfig, OAuthClientConfig } from '../config/sections/auth-config.js';
import type { TokenMinter } from './token-minter.js';
import { TokenRefusal } from './token-refusal.js';

/** The longest lifetime a token for this client may have, in seconds. */
export function clientMaxTtl(auth: AuthConfig, client: OAuthClientConfig): number {
  return Math.min(client.maxTtlSec ?? auth.jwtToken.maxTtlSec, auth.jwtToken.maxTtlSec);
}

/** The scopes of a `scope` request parameter (RFC 6749 §3.3), or undefined when there is none. */
export function requestedScopes(body: Record<string, unknown>): string[] | undefined {
  return typeof body.scope === 'string' ? body.scope.split(/\s+/).filter(Boolean) : undefined;
}

export async function clientCredentialsGrant(auth: AuthConfig, minter: TokenMinter, client: OAuthClientConfig, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const allowed = client.scopes ?? [];
  const requested = requestedScopes(body) ?? allowed;
  const beyond = requested.filter((s) => !allowed.includes(s));
  if (beyond.length > 0) throw new TokenRefusal('invalid_scope', `Scope not allowed for this client: ${beyond.join(' ')}`, 'invalid_scope', 'scope');
  const maxTtl = clientMaxTtl(auth, client);
  const rawTtl = body.ttl ?? body.expires_in;
  let ttlSec = maxTtl;
  if (rawTtl !== undefined) {
    ttlSec = Number(rawTtl);
    if (!Number.isInteger(ttlSec) || ttlSec < 1) throw new TokenRefusal('invalid_request', 'ttl must be a positive integer of seconds', 'malformed', 'ttl');
    if (ttlSec > maxTtl) throw new TokenRefusal('invalid_request', `Requested lifetime exceeds the allowance of ${maxTtl} s`, 'malformed', 'ttl');
  }
  const minted = await minter.mint({ subject: client.clientId, clientId: client.clientId, scopes: requested, ttlSec, ...(client.groups ? { groups: client.groups } : {}) });
  return { access_token: minted.token, token_type: 'Bearer', expires_in: ttlSec, ...(requested.length ? { scope: requested.join(' ') } : {}) };
}
