/**
 * The authentication of one server, built once at start from the configuration
 * and passed to whoever needs it (no module state): the authenticator, the
 * guard of the MCP routes, the public OAuth routes, `createAuthMW()` for the
 * consumer's routes, the stdio identity and the `use://auth` description.
 */
import type express from 'express';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config.js';
import type { CoreLogger } from '../core/core.js';
import type { HttpHandler, HttpRouter } from '../core/http-types.js';
import { Authenticator } from './authenticator.js';
import { baseUrlOf } from './base-url.js';
import { buildSchemes } from './build-schemes.js';
import type { ChallengeContext } from './challenge.js';
import { describeAuth } from './describe-auth.js';
import { FailureThrottle, type FailureLimiters } from './failure-throttle.js';
import { authMiddleware, type AuthGuard, type AuthMWOptions, type GuardContext } from './http-guard.js';
import { LdapGroupResolver } from './ldap-groups.js';
import { PROTECTED_RESOURCE_PATH } from './oauth-paths.js';
import { Revocation } from './revocation.js';
import { createTokenMinter, type TokenMinter } from './token-minter.js';
import type { TrustedIdp } from './trusted-idps.js';
import { requireCjs } from '../core/require-cjs.js';
import type { AuthInfo, CustomAuthValidator, RevocationCheck } from './types.js';
import type { JwtSigner } from './jwt-signer.js';
import type { AssertionReplayGuard } from './grant-id-jag.js';
import type { TokenGrant } from './oauth-token-endpoint.js';

export interface AuthRuntimeInput {
  config: AppConfig;
  /** Realm when `webServer.auth.realm` is empty. */
  name: string;
  nodeEnv: string;
  logger: CoreLogger;
  customAuthValidator?: CustomAuthValidator;
  isRevoked?: RevocationCheck;
  /** Told of every refused request (reason of AUTH_FAILURE_REASONS), for metrics and debug logs. */
  onFailure?: (reason: string, detail: Record<string, unknown>) => void;
  /** The counters of `webServer.auth.failureThrottle` on the rate-limit store; no throttle without them. */
  failureLimiters?: FailureLimiters;
  /** Where the `jti` of each ID-JAG is used once (memory, or PostgreSQL shared by instances); needed with `oauth.trustedIdps`. */
  usedAssertionIds?: AssertionReplayGuard;
}

export interface AuthRuntime {
  /** `webServer.auth.enabled`: the MCP routes require authentication. */
  readonly enabled: boolean;
  readonly realm: string;
  readonly authenticator: Authenticator;
  /** Mints tokens of the configured mode (legacyAesCtr, embedded), when it can. */
  readonly minter?: TokenMinter;
  readonly signer?: JwtSigner;
  /** The guard in front of /mcp, /sse and /messages; undefined when authentication is off. */
  readonly mcpGuard?: AuthGuard;
  /**
   * Whether the guard can run ahead of express (the HTTP fast lane): not with a
   * `customAuthValidator`, which may read the express request it is given.
   */
  readonly guardsAhead: boolean;
  /** Discovery documents, /oauth/token and the operators' endpoint (mounted before the guard). */
  readonly publicRouter: HttpRouter;
  /** Express middleware for the consumer's own routes, with the same schemes. */
  createAuthMW(options?: AuthMWOptions): HttpHandler;
  /** What `use://auth` says. */
  describe(transport: 'http' | 'stdio'): Record<string, unknown>;
  /** The identity of stdio requests (from `webServer.auth.stdioToken`), verified at start. */
  stdioAuth(): Promise<AuthInfo | undefined>;
  /** Empties the LDAP group cache. */
  clearGroupCache(): void;
}

export async function createAuthRuntime(input: AuthRuntimeInput): Promise<AuthRuntime> {
  const { config, logger } = input;
  const auth = config.webServer.auth;
  const production = input.nodeEnv === 'production';
  const realm = auth.realm || input.name;
  const schemes = await buildSchemes(auth, production);
  schemes.warnings.forEach((w) => logger.warn({}, w));
  const ldap = auth.ldap.url ? new LdapGroupResolver(auth.ldap) : undefined;
  await ldap?.ready();
  const revocation = new Revocation({ subjects: auth.revoked.subjects, tokenIds: auth.revoked.tokenIds, ...(input.isRevoked ? { check: input.isRevoked } : {}) });
  const { failureThrottle } = auth;
  const throttle =
    failureThrottle.enabled && input.failureLimiters
      ? new FailureThrottle(input.failureLimiters, { delayMs: failureThrottle.delayMs, maxDelayed: failureThrottle.maxDelayed })
      : undefined;
  const authenticator = new Authenticator({
    verifiers: schemes.verifiers,
    ...(input.customAuthValidator ? { custom: input.customAuthValidator } : {}),
    revocation,
    ...(ldap ? { groups: ldap } : {}),
    allowQueryToken: config.webServer.tokenCheck.allowQueryToken,
    logger,
    ...(throttle ? { throttle } : {}),
  });
  if (auth.enabled && authenticator.schemes.length === 0) {
    throw new Error('webServer.auth.enabled is true but no scheme is configured (permanentServerTokens, basic, jwtToken.mode or customAuthValidator)');
  }
  if (!auth.enabled && production && config.mcp.transportType === 'http') logger.warn({}, 'authentication is off (webServer.auth.enabled: false)');

  const metadataOn = auth.jwtToken.mode !== 'none';
  const challenge = (req: Request): ChallengeContext => ({
    realm,
    basic: !!auth.basic.username,
    ...(metadataOn ? { resourceMetadataUrl: `${baseUrlOf(req, auth.publicUrl)}${PROTECTED_RESOURCE_PATH}` } : {}),
  });
  const guardContext: GuardContext = { authenticator, challenge, ...(input.onFailure ? { onRefused: input.onFailure } : {}) };
  const createAuthMW = (options: AuthMWOptions = {}) => authMiddleware(guardContext, options);
  const minter = createTokenMinter(auth, schemes.signer);
  // The token endpoint is an HTTP route: a stdio server with the same configuration takes no ID-JAG.
  const idJag = schemes.trustedIdps && minter && config.mcp.transportType === 'http' ? await idJagGrantOf(input, schemes.trustedIdps, minter, revocation) : undefined;

  const routerInput = {
    auth,
    realm,
    allowQueryToken: config.webServer.tokenCheck.allowQueryToken,
    ...(schemes.signer ? { signer: schemes.signer } : {}),
    ...(minter ? { minter } : {}),
    revocation,
    ...(throttle ? { throttle } : {}),
    ...(idJag ? { idJag } : {}),
    ...(input.onFailure ? { onRefused: input.onFailure } : {}),
    createAuthMW,
    logMint: (entry: Record<string, unknown>) => logger.info(entry, 'token minted'),
  };
  // Built for HTTP only (express and the route modules load with it); stdio serves no route.
  let publicRouter: HttpRouter | undefined = config.mcp.transportType === 'http' ? (await import('./public-router.js')).buildPublicRouter(routerInput) : undefined;

  let stdioIdentity: Promise<AuthInfo | undefined> | undefined;
  return {
    enabled: auth.enabled,
    realm,
    authenticator,
    ...(minter ? { minter } : {}),
    ...(schemes.signer ? { signer: schemes.signer } : {}),
    ...(auth.enabled
      ? { mcpGuard: createAuthMW({ requiredScopes: auth.requiredScopes, requiredGroups: auth.requiredGroups, body: 'json-rpc' }) }
      : {}),
    guardsAhead: !input.customAuthValidator,
    get publicRouter() {
      publicRouter ??= requireCjs<typeof express>('express').Router();
      return publicRouter;
    },
    createAuthMW,
    describe: (transport) => describeAuth(auth, config.webServer.tokenCheck, { realm, custom: !!input.customAuthValidator, transport }),
    stdioAuth() {
      if (!auth.stdioToken) return Promise.resolve(undefined);
      stdioIdentity ??= authenticator.verifyCredentials({ scheme: 'bearer', token: auth.stdioToken, from: 'header' });
      return stdioIdentity;
    },
    clearGroupCache: () => ldap?.clearCache(),
  };
}

/** The ID-JAG grant of /oauth/token over the trusted identity providers (loaded only where they are configured). */
async function idJagGrantOf(input: AuthRuntimeInput, idps: TrustedIdp[], minter: TokenMinter, revocation: Revocation): Promise<TokenGrant> {
  const { auth } = input.config.webServer;
  if (!input.usedAssertionIds) throw new Error('webServer.auth.oauth.trustedIdps needs a store of used assertion ids (usedAssertionIds)');
  const [{ IdJagVerifier }, { idJagGrant }] = await Promise.all([import('./id-jag-verifier.js'), import('./grant-id-jag.js')]);
  const verifier = new IdJagVerifier({
    idps,
    audience: auth.jwtToken.issuer,
    clockToleranceSec: auth.jwtToken.clockToleranceSec,
    maxLifetimeSec: auth.oauth.idJagMaxLifetimeSec,
  });
  const log = input.logger;
  return idJagGrant({ auth, minter, verifier, usedIds: input.usedAssertionIds, revocation, issued: (entry) => log.info(entry, 'token issued for an ID-JAG') });
}
