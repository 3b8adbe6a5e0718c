/**
 * The authentication routes mounted before the guard: discovery documents, /oauth/token in the
 * embedded mode, and the operators' mint endpoint. Loaded by the HTTP transport only, so a stdio
 * server does not load express.
 */
import express from 'express';
import type { AuthConfig } from '../config/sections/auth-config.js';
import type { FailureThrottle } from './failure-throttle.js';
import type { AuthMWOptions } from './http-guard.js';
import type { JwtSigner } from './jwt-signer.js';
import { mintEndpointRouter } from './mint-endpoint.js';
import { metadataRouter } from './oauth-metadata.js';
import { tokenEndpointRouter, type TokenGrant } from './oauth-token-endpoint.js';
import type { Revocation } from './revocation.js';
import type { TokenMinter } from './token-minter.js';

export interface PublicRouterInput {
  auth: AuthConfig;
  realm: string;
  allowQueryToken: boolean;
  signer?: JwtSigner;
  minter?: TokenMinter;
  revocation: Revocation;
  throttle?: FailureThrottle;
  /** The jwt-bearer grant with ID-JAGs, when identity providers are trusted. */
  idJag?: TokenGrant;
  /** Told of every refusal of /oauth/token (the auth-failure hook). */
  onRefused?: (reason: string, detail: Record<string, unknown>) => void;
  createAuthMW(options: AuthMWOptions): express.RequestHandler;
  logMint(entry: Record<string, unknown>): void;
}

export function buildPublicRouter(input: PublicRouterInput): express.Router {
  const { auth, realm, signer, minter, revocation, throttle } = input;
  const router = express.Router();
  if (auth.jwtToken.mode !== 'none') router.use(metadataRouter({ auth, realm, allowQueryToken: input.allowQueryToken, ...(signer ? { signer } : {}) }));
  if (signer && minter && auth.jwtToken.mode === 'embedded') {
    const { idJag, onRefused } = input;
    router.use(tokenEndpointRouter({ auth, minter, revocation, realm, ...(throttle ? { throttle } : {}), ...(idJag ? { idJag } : {}), ...(onRefused ? { onRefused } : {}) }));
  }
  if (auth.mintEndpoint.enabled && minter) {
    const guard = input.createAuthMW({ requiredScopes: auth.mintEndpoint.requiredScopes, requiredGroups: auth.mintEndpoint.requiredGroups });
    router.use(mintEndpointRouter({ auth, minter, guard, log: input.logMint }));
  }
  return router;
}
