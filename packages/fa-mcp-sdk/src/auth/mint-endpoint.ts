/**
 * The operators' token endpoint (off by default): `POST <path>` with
 * `{ subject, scopes?, ttlSec? }`, behind authentication and the endpoint's own
 * required scopes or groups. A minted token carries only scopes from
 * `allowedScopes` and lives at most `maxTtlSec`; groups are never minted
 * (they come from the directory or the issuer).
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { AuthConfig } from '../config/sections/auth-config.js';
import { getRequestAuth } from './request-auth.js';
import type { TokenMinter } from './token-minter.js';

export interface MintEndpointOptions {
  auth: AuthConfig;
  minter: TokenMinter;
  guard: RequestHandler;
  log: (entry: Record<string, unknown>) => void;
}

export function mintEndpointRouter(opts: MintEndpointOptions): express.Router {
  const cfg = opts.auth.mintEndpoint;
  const router = express.Router();
  router.post(cfg.path, opts.guard, express.json({ limit: '8kb' }), (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const subject = typeof body.subject === 'string' ? body.subject.trim() : '';
    if (!subject || subject.length > 256) return void res.status(400).json({ error: 'invalid_request', error_description: 'subject (1..256 characters) is required' });
    const scopes = Array.isArray(body.scopes) ? body.scopes.filter((s): s is string => typeof s === 'string') : [];
    const beyond = scopes.filter((s) => !cfg.allowedScopes.includes(s));
    if (beyond.length > 0) return void res.status(400).json({ error: 'invalid_scope', error_description: `Scope not allowed here: ${beyond.join(' ')}` });
    const ttlSec = body.ttlSec === undefined ? Math.min(3600, cfg.maxTtlSec) : Number(body.ttlSec);
    if (!Number.isInteger(ttlSec) || ttlSec < 1 || ttlSec > cfg.maxTtlSec) {
      return void res.status(400).json({ error: 'invalid_request', error_description: `ttlSec must be an integer between 1 and ${cfg.maxTtlSec}` });
    }
    opts.minter
      .mint({ subject, scopes, ttlSec })
      .then((minted) => {
        opts.log({ by: getRequestAuth(req)?.subject, subject, scopes, ttlSec, tokenId: minted.tokenId });
        res.status(201).json({ token: minted.token, token_type: 'Bearer', expires_at: minted.expiresAt, expires_in: ttlSec, token_id: minted.tokenId });
      })
      .catch(() => res.status(500).json({ error: 'server_error', error_description: 'The token could not be minted' }));
  });
  return router;
}
