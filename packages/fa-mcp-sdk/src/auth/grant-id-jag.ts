/**
 * The ID-JAG grant of `POST /oauth/token` (RFC 7523 §2.1 jwt-bearer with an
 * Identity Assertion JWT Authorization Grant, the MCP Enterprise-Managed
 * Authorization extension): after IdJagVerifier held the assertion, the
 * request is checked against it — the IdP may act for the authenticated
 * client, the grant was issued to that client, it names this MCP server (if
 * it names a resource), the requested resource and scopes are within it, the
 * subject is not revoked — and its `jti` is used once (in the store shared by
 * instances). The access token is audience-restricted to the resource and
 * carries the mapped subject, e-mail and groups, and the scopes both the IdP
 * granted and the client may get (RFC 6749 §3.3: fewer than asked, never
 * more; asking for a scope the client may not get is `invalid_scope`). Groups
 * never become scopes.
 */
import { createHash } from 'node:crypto';
import type { AuthConfig, OAuthClientConfig } from '../config/sections/auth-config.js';
import { clientMaxTtl, requestedScopes } from './grant-client-credentials.js';
import type { IdJagVerifier, VerifiedIdJag } from './id-jag-verifier.js';
import { resourceIdentifiers } from './oauth-paths.js';
import type { Revocation } from './revocation.js';
import type { TokenMinter } from './token-minter.js';
import { TokenRefusal } from './token-refusal.js';

/** The one use of an assertion id (state/assertion-ids.ts, memory or PostgreSQL). */
export interface AssertionReplayGuard {
  /** True the first time `key` is seen before `expiresAtMs`; false on a replay; throws when it cannot tell. */
  firstUse(key: string, expiresAtMs: number): Promise<boolean>;
}

export interface IdJagGrantOptions {
  auth: AuthConfig;
  minter: TokenMinter;
  verifier: IdJagVerifier;
  usedIds: AssertionReplayGuard;
  revocation: Revocation;
  /** Told of every token issued (subject, client, IdP, jti, scopes), for the log. */
  issued?: (entry: Record<string, unknown>) => void;
}

/** The key a `jti` is remembered under: unique per issuer (RFC 7519 §4.1.7), bounded in length. */
const replayKey = (grant: VerifiedIdJag) => createHash('sha256').update(`${grant.idp.issuer}\n${grant.jti}`, 'utf8').digest('base64url');

export function idJagGrant(opts: IdJagGrantOptions) {
  const { auth } = opts;
  const ours = new Set(resourceIdentifiers(auth));
  const expected = [...ours].join(', ');

  return async (client: OAuthClientConfig, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const assertion = body.assertion;
    if (typeof assertion !== 'string' || assertion === '') throw new TokenRefusal('invalid_request', 'The assertion parameter is required', 'malformed', 'assertion');
    const grant = await opts.verifier.verify(assertion);
    const facts = { issuer: grant.idp.issuer, subject: grant.subject, jti: grant.jti };
    const refuse = (error: 'invalid_grant' | 'unauthorized_client' | 'invalid_target' | 'invalid_scope', message: string, reason: string, check: string) =>
      new TokenRefusal(error, message, reason, check, facts);

    if (!grant.idp.clientIds.has(client.clientId)) {
      throw refuse('unauthorized_client', 'This identity provider is not trusted to act for this client (oauth.trustedIdps[].clientIds)', 'wrong_client', 'client_id');
    }
    if (grant.clientId !== client.clientId) throw refuse('invalid_grant', 'The ID-JAG was issued for another client', 'wrong_client', 'client_id');

    const named = grant.resources?.filter((r) => ours.has(r));
    if (grant.resources && named?.length === 0) throw refuse('invalid_grant', `The ID-JAG resource is not this MCP server (${expected})`, 'wrong_resource', 'resource');
    // RFC 8707: a resource the client asks for here must be this server's, and one the ID-JAG names.
    const asked = typeof body.resource === 'string' ? body.resource : undefined;
    if (asked !== undefined && (!ours.has(asked) || (named && !named.includes(asked)))) {
      throw refuse('invalid_target', `The requested resource is not this MCP server or not one the ID-JAG names (${expected})`, 'wrong_resource', 'resource');
    }
    const audience = asked ? [asked] : named;

    // Asking for more than the client is registered for is refused, as with client_credentials; what the
    // IdP did not grant is left out (RFC 6749 §3.3), and the answer's `scope` says what was granted.
    const allowed = client.scopes ?? [];
    const wanted = requestedScopes(body);
    const beyond = wanted?.filter((s) => !allowed.includes(s)) ?? [];
    if (beyond.length > 0) throw refuse('invalid_scope', `Scope not allowed for this client: ${beyond.join(' ')}`, 'invalid_scope', 'scope');
    const scopes = (wanted ?? grant.scopes).filter((s) => grant.scopes.includes(s) && allowed.includes(s));

    try {
      await opts.revocation.assertNotRevoked({ subject: grant.subject, scopes: [], groups: [], claims: {} });
    } catch {
      throw refuse('invalid_grant', 'Access of this subject has been revoked', 'revoked', 'sub');
    }
    // Last: a grant refused for any other reason stays usable by the client it was issued to.
    const tolerance = auth.jwtToken.clockToleranceSec * 1000;
    const first = await opts.usedIds.firstUse(replayKey(grant), grant.exp * 1000 + tolerance).catch(() => {
      // Never taken twice: when the store cannot tell, the grant is not taken at all.
      throw new TokenRefusal('temporarily_unavailable', 'Whether this ID-JAG was used cannot be checked right now; try again later', 'other', 'jti', facts);
    });
    if (!first) {
      throw refuse('invalid_grant', 'The ID-JAG has been used already (jti)', 'replayed', 'jti');
    }

    const ttlSec = clientMaxTtl(auth, client);
    const minted = await opts.minter.mint({
      subject: grant.subject,
      clientId: client.clientId,
      scopes,
      ttlSec,
      ...(grant.groups.length ? { groups: grant.groups } : {}),
      ...(audience?.length ? { audience: audience.length === 1 ? (audience[0] as string) : audience } : {}),
      claims: { idp: grant.idp.issuer, ...(grant.email ? { email: grant.email } : {}) },
    });
    opts.issued?.({ grant: 'id-jag', ...facts, clientId: client.clientId, scopes, tokenId: minted.tokenId });
    return {
      access_token: minted.token,
      token_type: 'Bearer',
      expires_in: ttlSec,
      ...(scopes.length ? { scope: scopes.join(' ') } : {}),
    };
  };
}
