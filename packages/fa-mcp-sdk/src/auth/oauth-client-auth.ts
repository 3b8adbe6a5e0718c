/**
 * Client authentication at `POST /oauth/token` (RFC 6749 §2.3.1): HTTP Basic
 * (`client_secret_basic`) or form fields (`client_secret_post`), secrets
 * compared in constant time with unknown clients taking the same path, under
 * the failure throttle (unknown clients and wrong secrets count; a right
 * secret while blocked is refused like a wrong one), and revoked clients
 * refused. Every grant of the endpoint starts here.
 */
import type { Request } from 'express';
import type { AuthConfig, OAuthClientConfig } from '../config/sections/auth-config.js';
import { AuthError } from '../core/auth-error.js';
import { safeEqual } from './constant-time.js';
import { AuthThrottledError, type FailureThrottle } from './failure-throttle.js';
import type { Revocation } from './revocation.js';
import { TokenRefusal } from './token-refusal.js';

const DUMMY: OAuthClientConfig = { clientId: '\0', clientSecret: '\0unknown-client\0' };
/** How much of a client id a refusal records (it is the caller's input). */
const MAX_RECORDED_ID = 200;

function presentedCredentials(req: Request): { id: string; secret: string } | undefined {
  const header = req.get('authorization');
  if (header && /^basic\s/i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    try {
      // client_secret_basic form-urlencodes both parts before base64 (RFC 6749 §2.3.1).
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
    } catch {
      return undefined;
    }
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') return { id: body.client_id, secret: body.client_secret };
  return undefined;
}

export interface ClientAuthOptions {
  auth: AuthConfig;
  revocation: Revocation;
  throttle?: FailureThrottle | undefined;
}

/**
 * The authenticated client of the request. Throws a TokenRefusal (`invalid_client`) or, over the
 * failure throttle's budget, its AuthThrottledError (answered 429).
 */
export async function authenticateClient(req: Request, opts: ClientAuthOptions): Promise<OAuthClientConfig> {
  const creds = presentedCredentials(req);
  if (!creds) throw new TokenRefusal('invalid_client', 'Client authentication is required', 'missing_credentials', 'client_authentication');
  // Compare against a dummy when the id is unknown, so an unknown client costs the same time.
  const client = opts.auth.oauth.clients.find((c) => c.clientId === creds.id);
  const secretOk = safeEqual(creds.secret, (client ?? DUMMY).clientSecret);
  const keys = { address: req.ip ?? req.socket.remoteAddress, user: creds.id };
  if (!client || !secretOk) {
    const answer = opts.throttle ? await opts.throttle.refused(new AuthError('invalid_credentials', 'Unknown client or wrong secret'), keys, false, true) : undefined;
    if (answer instanceof AuthThrottledError) throw answer;
    throw new TokenRefusal('invalid_client', 'Unknown client or wrong secret', 'invalid_client', 'client_secret', { clientId: creds.id.slice(0, MAX_RECORDED_ID) });
  }
  // A right secret while blocked is refused like a wrong one, and waits as long while the client id is slowed.
  await opts.throttle?.assertOpen(keys, true);
  try {
    await opts.revocation.assertNotRevoked({ subject: client.clientId, scopes: [], groups: [], claims: {} });
  } catch {
    throw new TokenRefusal('invalid_client', 'This client has been revoked', 'revoked', 'client_revoked', { clientId: client.clientId });
  }
  return client;
}
