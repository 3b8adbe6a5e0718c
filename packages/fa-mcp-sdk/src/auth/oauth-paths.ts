/** Where the OAuth discovery documents live and whom they name, apart from their express routes (oauth-metadata.ts). */
import type { AuthConfig } from '../config/sections/auth-config.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The issuer clients should ask for tokens, when one is known. */
export function authorizationServerOf(auth: AuthConfig): string | undefined {
  return auth.jwtToken.mode === 'none' || auth.jwtToken.mode === 'legacyAesCtr' ? undefined : auth.jwtToken.issuer || undefined;
}
