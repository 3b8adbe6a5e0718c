/** Where the OAuth discovery documents live and whom they name, apart from their express routes (oauth-metadata.ts). */
import type { AuthConfig } from '../config/sections/auth-config.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The MCP routes whose path-aware metadata document is served (RFC 9728 §3.1): each names one resource identifier. */
export const RESOURCE_PATHS = ['', '/mcp', '/sse'] as const;

/** The grant type of RFC 7523 §2.1 (a JWT as an authorization grant), how an ID-JAG is presented. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The profile of `authorization_grant_profiles_supported` that says ID-JAGs are accepted (draft-ietf-oauth-identity-assertion-authz-grant §7.2). */
export const ID_JAG_GRANT_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** The issuer clients should ask for tokens, when one is known. */
export function authorizationServerOf(auth: AuthConfig): string | undefined {
  return auth.jwtToken.mode === 'none' || auth.jwtToken.mode === 'legacyAesCtr' ? undefined : auth.jwtToken.issuer || undefined;
}

/** Whether POST /oauth/token takes ID-JAGs: the embedded mode with at least one trusted identity provider. */
export function acceptsIdJag(auth: AuthConfig): boolean {
  return auth.jwtToken.mode === 'embedded' && auth.oauth.trustedIdps.length > 0;
}

/**
 * The resource identifiers of this MCP server (RFC 8707, RFC 9728) an ID-JAG may name and an access
 * token minted for one carries as `aud`: the public URL (`publicUrl`, else the embedded issuer) with
 * each MCP route, and the bare origin as written with and without its slash.
 */
export function resourceIdentifiers(auth: AuthConfig): string[] {
  const base = (auth.publicUrl || auth.jwtToken.issuer).replace(/\/+$/, '');
  if (!base) return [];
  return [...new Set([base, ...RESOURCE_PATHS.map((path) => `${base}${path || '/'}`)])];
}
