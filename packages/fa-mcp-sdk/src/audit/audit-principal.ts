/**
 * The caller of a record, from what authentication established (`ctx.auth`): its subject, groups and
 * scopes, and from the verified claims only the client id and the issuer. Never a token, a password
 * or the claim set itself.
 */
import type { AuthInfo } from '../core/request-context.js';
import type { AuditPrincipal } from './audit-record.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** How the caller was authenticated, as far as the claims tell (the request layer may know better). */
function authModeOf(claims: Record<string, unknown>): string | undefined {
  if (claims.token_type === 'permanentServerToken') return 'static';
  if (claims.auth === 'basic') return 'basic';
  if (typeof claims.iss === 'string' || typeof claims.sub === 'string') return 'jwt';
  return undefined;
}

/** The principal of a record; null for an anonymous request. `authMode` wins over what the claims suggest. */
export function auditPrincipal(auth: AuthInfo | undefined, authMode?: string): AuditPrincipal | null {
  if (!auth) return null;
  const claims = auth.claims ?? {};
  const clientId = text(claims.client_id) ?? text(claims.azp) ?? text(claims.cid);
  const issuer = text(claims.iss);
  const mode = authMode ?? authModeOf(claims);
  // members in canonical order, so the record serializes natively (record-hash.ts)
  const principal = {} as AuditPrincipal;
  if (mode) principal.authMode = mode;
  if (clientId) principal.clientId = clientId;
  principal.groups = [...auth.groups];
  if (issuer) principal.issuer = issuer;
  principal.scopes = [...auth.scopes];
  principal.subject = auth.subject;
  return principal;
}
