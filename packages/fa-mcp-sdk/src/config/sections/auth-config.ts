/** The validated shape of `webServer.auth` and `webServer.tokenCheck` (schema: ./auth.ts). */

export type JwtMode = 'none' | 'legacyAesCtr' | 'embedded' | 'localKey' | 'remoteJwks';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  groups?: string[];
  maxTtlSec?: number;
}

/** One enterprise identity provider of `webServer.auth.oauth.trustedIdps`. */
export interface TrustedIdpConfig {
  issuer: string;
  jwksUrl: string;
  algorithms?: string[];
  /** The oauth.clients this IdP may issue ID-JAGs for. */
  clientIds: string[];
  /** The ID-JAG claims of the subject, the e-mail and the groups (defaults: sub, email, groups). */
  claims?: { subject?: string; email?: string; groups?: string };
}

/** `webServer.auth`, as validated. */
export interface AuthConfig {
  enabled: boolean;
  realm: string;
  publicUrl: string;
  hideUnauthorized: boolean;
  requiredScopes: string[];
  requiredGroups: string[];
  permanentServerTokens: string[];
  serverTokenScopes: string[];
  basic: { username: string; password: string; scopes: string[]; groups: string[] };
  jwtToken: {
    mode: JwtMode;
    encryptKey: string;
    legacyAcceptUnsigned: boolean;
    issuer: string;
    audience: string;
    algorithms: string[];
    clockToleranceSec: number;
    verifyCacheMs: number;
    publicKey: string;
    privateKey: string;
    jwksUrl: string;
    jwksCooldownMs: number;
    jwksCacheMaxAgeMs: number;
    jwksTimeoutMs: number;
    subjectClaim: string;
    scopeClaim: string;
    groupsClaim: string;
    maxTtlSec: number;
  };
  oauth: { clients: OAuthClientConfig[]; scopesSupported: string[]; trustedIdps: TrustedIdpConfig[]; idJagMaxLifetimeSec: number };
  mintEndpoint: {
    enabled: boolean;
    path: string;
    requiredScopes: string[];
    requiredGroups: string[];
    allowedScopes: string[];
    maxTtlSec: number;
  };
  revoked: { subjects: string[]; tokenIds: string[] };
  ldap: {
    url: string;
    bindDn: string;
    bindPassword: string;
    baseDn: string;
    userFilter: string;
    groupFilter: string;
    groupNameAttribute: string;
    cacheTtlMs: number;
    timeoutMs: number;
  };
  failureThrottle: FailureThrottleConfig;
  stdioToken: string;
}

/** `webServer.auth.failureThrottle`, as validated. */
export interface FailureThrottleConfig {
  enabled: boolean;
  perAddress: number;
  perUserAddress: number;
  perUser: number;
  windowSec: number;
  blockSec: number;
  delayMs: number;
  maxDelayed: number;
}

/** `webServer.tokenCheck`, as validated. */
export interface TokenCheckConfig {
  allowQueryToken: boolean;
}
