/**
 * OAuth discovery documents: protected resource metadata (RFC 9728) whenever
 * JWT authentication is on, and in the embedded mode the authorization server
 * metadata (RFC 8414) and the public JWKS. The issuer comes from the
 * configuration; absolute URLs from `publicUrl` or the listening address,
 * never from the Host header.
 */
import express, { type Request, type Response } from 'express';
import type { AuthConfig } from '../config/sections/auth-config.js';
import { baseUrlOf } from './base-url.js';
import type { JwtSigner } from './jwt-signer.js';
import { acceptsIdJag, authorizationServerOf, ID_JAG_GRANT_PROFILE, JWT_BEARER_GRANT, PROTECTED_RESOURCE_PATH, RESOURCE_PATHS } from './oauth-paths.js';

export { authorizationServerOf, PROTECTED_RESOURCE_PATH };

export interface MetadataOptions {
  auth: AuthConfig;
  realm: string;
  allowQueryToken: boolean;
  signer?: JwtSigner;
}

function json(res: Response, body: unknown): void {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.json(body);
}

export function metadataRouter(opts: MetadataOptions): express.Router {
  const router = express.Router();
  const { auth } = opts;
  const issuer = authorizationServerOf(auth);
  const scopes = auth.oauth.scopesSupported;
  const idJag = acceptsIdJag(auth);

  for (const path of RESOURCE_PATHS) {
    router.get(`${PROTECTED_RESOURCE_PATH}${path}`, (req: Request, res: Response) => {
      const base = baseUrlOf(req, auth.publicUrl);
      json(res, {
        resource: `${base}${path || '/'}`,
        ...(issuer ? { authorization_servers: [issuer] } : {}),
        ...(scopes.length ? { scopes_supported: scopes } : {}),
        bearer_methods_supported: opts.allowQueryToken ? ['header', 'query'] : ['header'],
        resource_name: opts.realm,
      });
    });
  }

  const signer = opts.signer;
  if (signer && issuer) {
    router.get('/.well-known/oauth-authorization-server', (req: Request, res: Response) => {
      const base = baseUrlOf(req, auth.publicUrl);
      json(res, {
        issuer,
        // No authorization endpoint: only the token endpoint's grants are served. The URL answers with
        // unsupported_response_type; it is listed because MCP clients expect the field.
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        jwks_uri: `${base}/.well-known/jwks.json`,
        grant_types_supported: idJag ? ['client_credentials', JWT_BEARER_GRANT] : ['client_credentials'],
        // Says only that ID-JAGs are processed, never which identity providers are trusted (the draft's §9.4).
        ...(idJag ? { authorization_grant_profiles_supported: [ID_JAG_GRANT_PROFILE] } : {}),
        response_types_supported: [],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        ...(scopes.length ? { scopes_supported: scopes } : {}),
      });
    });
    router.get('/oauth/authorize', (_req: Request, res: Response) => {
      res.status(400).json({ error: 'unsupported_response_type', error_description: 'This server issues tokens only at its token endpoint (client_credentials, and ID-JAGs where identity providers are trusted)' });
    });
    router.get('/.well-known/jwks.json', (_req: Request, res: Response) => json(res, signer.jwks()));
  }
  return router;
}
