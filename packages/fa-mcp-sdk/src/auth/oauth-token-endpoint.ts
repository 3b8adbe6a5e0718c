/**
 * `POST /oauth/token` of the embedded mode: the client-credentials grant
 * (RFC 6749 §4.4) for configured clients. A client authenticates with HTTP
 * Basic or form fields (secrets compared in constant time, unknown clients
 * taking the same path), gets only scopes it is allowed, and a lifetime no
 * longer than its allowance; asking for more is refused, not trimmed.
 */
import express, { type Request, type Response } from 'express';
import type { AuthConfig, OAuthClientConfig } from '../config/sections/auth-config.js';
import { AuthError } from '../core/auth-error.js';
import { sendAuthRefusal } from './challenge.js';
import { safeEqual } from './constant-time.js';
import { AuthThrottledError, type FailureThrottle } from './failure-throttle.js';
import type { Revocation } from './revocation.js';
import type { TokenMinter } from './token-minter.js';

export interface TokenEndpointOptions {
  auth: AuthConfig;
  minter: TokenMinter;
  revocation: Revocation;
  realm: string;
  /** Counts unknown clients and wrong secrets per address, client id from that address and client id (`webServer.auth.failureThrottle`). */
  throttle?: FailureThrottle;
}

const DUMMY: OAuthClientConfig = { clientId: '\0', clientSecret: '\0unknown-client\0' };

function oauthError(res: Response, status: number, error: string, description: string, realm?: string): void {
  if (realm) res.setHeader('WWW-Authenticate', `Basic realm="${realm.replace(/[\\"]/g, '')}", charset="UTF-8"`);
  res.status(status).json({ error, error_description: description });
}

function clientCredentials(req: Request): { id: string; secret: string; viaHeader: boolean } | undefined {
  const header = req.get('authorization');
  if (header && /^basic\s/i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    try {
      // client_secret_basic form-urlencodes both parts before base64 (RFC 6749 §2.3.1).
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)), viaHeader: true };
    } catch {
      return undefined;
    }
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') {
    return { id: body.client_id, secret: body.client_secret, viaHeader: false };
  }
  return undefined;
}

export function tokenEndpointRouter(opts: TokenEndpointOptions): express.Router {
  const router = express.Router();
  const { auth, minter } = opts;
  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '8kb' }), (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    void (async () => {
      const creds = clientCredentials(req);
      if (!creds) return oauthError(res, 401, 'invalid_client', 'Client authentication is required', opts.realm);
      // Compare against a dummy when the id is unknown, so an unknown client costs the same time.
      const client = auth.oauth.clients.find((c) => c.clientId === creds.id);
      const secretOk = safeEqual(creds.secret, (client ?? DUMMY).clientSecret);
      const keys = { address: req.ip ?? req.socket.remoteAddress, user: creds.id };
      if (!client || !secretOk) {
        const refusal = new AuthError('invalid_credentials', 'Unknown client or wrong secret');
        const answer = opts.throttle ? await opts.throttle.refused(refusal, keys, false, true) : refusal;
        if (answer instanceof AuthThrottledError) return sendAuthRefusal(res, answer, { realm: opts.realm, basic: false }, 'oauth');
        return oauthError(res, 401, 'invalid_client', refusal.message, opts.realm);
      }
      // A right secret while blocked is refused like a wrong one, and waits as long while the client id is slowed.
      const blocked = await opts.throttle?.assertOpen(keys, true).then(() => undefined, (err: unknown) => err);
      if (blocked) return sendAuthRefusal(res, blocked, { realm: opts.realm, basic: false }, 'oauth');
      try {
        await opts.revocation.assertNotRevoked({ subject: client.clientId, scopes: [], groups: [], claims: {} });
      } catch {
        return oauthError(res, 401, 'invalid_client', 'This client has been revoked', opts.realm);
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (body.grant_type !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported');
      const allowed = client.scopes ?? [];
      const requested = typeof body.scope === 'string' ? body.scope.split(/\s+/).filter(Boolean) : allowed;
      const beyond = requested.filter((s) => !allowed.includes(s));
      if (beyond.length > 0) return oauthError(res, 400, 'invalid_scope', `Scope not allowed for this client: ${beyond.join(' ')}`);
      const maxTtl = Math.min(client.maxTtlSec ?? auth.jwtToken.maxTtlSec, auth.jwtToken.maxTtlSec);
      const rawTtl = body.ttl ?? body.expires_in;
      let ttlSec = maxTtl;
      if (rawTtl !== undefined) {
        ttlSec = Number(rawTtl);
        if (!Number.isInteger(ttlSec) || ttlSec < 1) return oauthError(res, 400, 'invalid_request', 'ttl must be a positive integer of seconds');
        if (ttlSec > maxTtl) return oauthError(res, 400, 'invalid_request', `Requested lifetime exceeds the allowance of ${maxTtl} s`);
      }
      const minted = await minter.mint({ subject: client.clientId, clientId: client.clientId, scopes: requested, ttlSec, ...(client.groups ? { groups: client.groups } : {}) });
      res.status(200).json({ access_token: minted.token, token_type: 'Bearer', expires_in: ttlSec, ...(requested.length ? { scope: requested.join(' ') } : {}) });
    })().catch(() => oauthError(res, 500, 'server_error', 'The token could not be issued'));
  });
  return router;
}
