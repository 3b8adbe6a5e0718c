/**
 * What the built-in `use://auth` resource tells clients: which schemes the
 * server accepts and where to get a token. Built from the configuration,
 * never containing a secret (no tokens, passwords, keys or client secrets).
 */
import type { AuthConfig, TokenCheckConfig } from '../config/sections/auth-config.js';
import { acceptsIdJag, authorizationServerOf, ID_JAG_GRANT_PROFILE, JWT_BEARER_GRANT, PROTECTED_RESOURCE_PATH } from './oauth-paths.js';

export function describeAuth(auth: AuthConfig, tokenCheck: TokenCheckConfig, opts: { realm: string; custom: boolean; transport: 'http' | 'stdio' }): Record<string, unknown> {
  if (opts.transport === 'stdio') {
    return {
      required: false,
      transport: 'stdio',
      note: auth.stdioToken
        ? 'stdio: the identity comes from the token the server was started with (MCP_AUTH_TOKEN); no per-request credentials.'
        : 'stdio: the caller is the local user who started the process; no credentials are needed.',
    };
  }
  if (!auth.enabled) return { required: false, schemes: [], note: 'This server does not require authentication.' };
  const schemes: Record<string, unknown>[] = [];
  const bearerIn = tokenCheck.allowQueryToken ? 'the Authorization header (Bearer) or the access_token query parameter' : 'the Authorization header (Bearer)';
  if (auth.permanentServerTokens.length > 0) schemes.push({ type: 'bearer', kind: 'server-token', how: `A server token issued by the operator, in ${bearerIn}.` });
  const jwt = auth.jwtToken;
  if (jwt.mode !== 'none') {
    const issuer = authorizationServerOf(auth);
    schemes.push({
      type: 'bearer',
      kind: 'jwt',
      mode: jwt.mode,
      how: `A token in ${bearerIn}.`,
      ...(issuer ? { issuer } : {}),
      ...(jwt.audience ? { audience: jwt.audience } : {}),
      ...(jwt.mode === 'embedded' ? { tokenEndpoint: '/oauth/token', grant: 'client_credentials', jwks: '/.well-known/jwks.json' } : {}),
      // Which identity providers are trusted is not said (the ID-JAG draft's §9.4), only that ID-JAGs are taken.
      ...(acceptsIdJag(auth) ? { enterpriseManaged: { grant: JWT_BEARER_GRANT, profile: ID_JAG_GRANT_PROFILE } } : {}),
      metadata: PROTECTED_RESOURCE_PATH,
    });
  }
  if (auth.basic.username) schemes.push({ type: 'basic', how: 'HTTP Basic with the user name and password given by the operator.' });
  if (opts.custom) schemes.push({ type: 'custom', how: 'Credentials checked by the server itself; ask its operator.' });
  return {
    required: true,
    realm: opts.realm,
    schemes,
    ...(auth.requiredScopes.length ? { requiredScopes: auth.requiredScopes } : {}),
    ...(auth.requiredGroups.length ? { requiredGroups: auth.requiredGroups } : {}),
    ...(auth.oauth.scopesSupported.length ? { scopesSupported: auth.oauth.scopesSupported } : {}),
    note: 'Tools, prompts and resources may require further scopes or groups; a refusal names them.',
  };
}
