/**
 * The caller's identity across the SDK boundary: the HTTP guard's AuthInfo
 * travels to request handlers as the SDK's `authInfo` (`handleRequest(req,
 * { authInfo })`, `fetch(req, { authInfo })`, `ctx.http.authInfo`), ours kept
 * whole in `extra`. The raw token is not passed on (no token passthrough).
 */
import type { AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { AuthInfo } from '../core/request-context.js';

const EXTRA_KEY = 'fa-mcp/auth';

export function toSdkAuthInfo(auth: AuthInfo): SdkAuthInfo {
  const exp = auth.claims.exp;
  const clientId = typeof auth.claims.client_id === 'string' ? auth.claims.client_id : auth.subject;
  return {
    token: '',
    clientId,
    scopes: [...auth.scopes],
    ...(typeof exp === 'number' ? { expiresAt: exp } : {}),
    extra: { [EXTRA_KEY]: auth },
  };
}

/** Ours when the guard put it there; otherwise built from the SDK's fields (an embedding host's own verifier). */
export function fromSdkAuthInfo(sdk: SdkAuthInfo | undefined): AuthInfo | undefined {
  if (!sdk) return undefined;
  const ours = sdk.extra?.[EXTRA_KEY] as AuthInfo | undefined;
  if (ours && typeof ours.subject === 'string') return ours;
  return { subject: sdk.clientId, scopes: [...sdk.scopes], groups: [], claims: { ...(sdk.extra ?? {}) } };
}

/** The SDK form of the caller an express request carries (set by the auth middleware), if any. */
export function sdkAuthOf(req: object): SdkAuthInfo | undefined {
  const auth = (req as { auth?: AuthInfo }).auth;
  return auth ? toSdkAuthInfo(auth) : undefined;
}
