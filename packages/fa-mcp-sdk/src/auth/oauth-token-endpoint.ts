/**
 * `POST /oauth/token` of the embedded mode: the client authenticates
 * (oauth-client-auth.ts, under the failure throttle), then the grant it asks
 * for runs: `client_credentials` (RFC 6749 §4.4) for configured clients, and
 * the jwt-bearer grant with an ID-JAG (grant-id-jag.ts) when identity providers
 * are trusted. Every refusal is an OAuth error (RFC 6749 §5.2) naming the
 * check that failed, and goes through one hook (`onRefused`: the auth-failure
 * metric, the debug channel, the audit trail) with its reason and facts.
 */
import express, { type Request, type Response } from 'express';
import type { AuthConfig, OAuthClientConfig } from '../config/sections/auth-config.js';
import { RateLimitedError } from '../core/errors.js';
import { sendAuthRefusal } from './challenge.js';
import type { FailureThrottle } from './failure-throttle.js';
import { clientCredentialsGrant } from './grant-client-credentials.js';
import { authenticateClient } from './oauth-client-auth.js';
import { JWT_BEARER_GRANT } from './oauth-paths.js';
import type { Revocation } from './revocation.js';
import type { TokenMinter } from './token-minter.js';
import { sendTokenRefusal, TokenRefusal } from './token-refusal.js';

/** A grant: the authenticated client and the form in, the token response out (or a TokenRefusal thrown). */
export type TokenGrant = (client: OAuthClientConfig, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface TokenEndpointOptions {
  auth: AuthConfig;
  minter: TokenMinter;
  revocation: Revocation;
  realm: string;
  /** Counts unknown clients and wrong secrets per address, client id from that address and client id (`webServer.auth.failureThrottle`). */
  throttle?: FailureThrottle;
  /** The jwt-bearer grant with ID-JAGs (grant-id-jag.ts), when identity providers are trusted. */
  idJag?: TokenGrant;
  /** Told of every refusal: a reason of AUTH_FAILURE_REASONS and the structured refusal (TokenRefusalDetail). */
  onRefused?: (reason: string, detail: Record<string, unknown>) => void;
}

export function tokenEndpointRouter(opts: TokenEndpointOptions): express.Router {
  const router = express.Router();
  const { auth, minter } = opts;
  const grants: Record<string, TokenGrant> = {
    client_credentials: (client, body) => clientCredentialsGrant(auth, minter, client, body),
    ...(opts.idJag ? { [JWT_BEARER_GRANT]: opts.idJag } : {}),
  };
  const supported = Object.keys(grants).join(', ');
  // The assertion of a jwt-bearer grant is a JWT of a few KB at most.
  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '16kb' }), (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const grantType = typeof body.grant_type === 'string' ? body.grant_type.slice(0, 100) : undefined;
    let clientId: string | undefined;
    void (async () => {
      const client = await authenticateClient(req, { auth, revocation: opts.revocation, throttle: opts.throttle });
      clientId = client.clientId;
      const grant = grantType ? grants[grantType] : undefined;
      if (!grant) throw new TokenRefusal('unsupported_grant_type', `Supported grant types: ${supported}`, 'unsupported_grant_type', 'grant_type');
      res.status(200).json(await grant(client, body));
    })().catch((err: unknown) => {
      const refusal = asRefusal(err);
      if (refusal) {
        const detail = refusal.withFacts(clientId ? { clientId } : {}).detail(grantType);
        opts.onRefused?.(refusal.reason, detail);
        return sendTokenRefusal(res, refusal, opts.realm);
      }
      // The failure throttle's 429 (Retry-After, temporarily_unavailable).
      opts.onRefused?.('throttled', { endpoint: '/oauth/token', ...(grantType ? { grantType } : {}), error: 'temporarily_unavailable', check: 'failure_throttle', description: (err as Error).message });
      sendAuthRefusal(res, err, { realm: opts.realm, basic: false }, 'oauth');
    });
  });
  return router;
}

/** A refusal to answer as it is; any other failure (but the throttle's) is a server error with nothing of it shown. */
function asRefusal(err: unknown): TokenRefusal | undefined {
  if (err instanceof TokenRefusal) return err;
  if (err instanceof RateLimitedError) return undefined;
  return new TokenRefusal('server_error', 'The token could not be issued', 'other', 'server');
}
