/** The validated shape of `webServer.auth` and `webServer.tokenCheck` (schema: ./auth.ts). */

export type JwtMode = 'none' | 'legacyAesCtr' | 'embedded' | 'localKey' | 'remoteJwks';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  groups?: string[];
  maxTtlSec?: number;
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
  oauth: { clients: OAuthClientConfig[]; scopesSupported: string[] };
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
