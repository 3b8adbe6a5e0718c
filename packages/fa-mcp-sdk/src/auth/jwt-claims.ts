/**
 * From verified token claims to an AuthInfo: the subject, scopes (a
 * space-separated string or an array, under the configured claim or `scp`),
 * and groups.
 */
import { AuthError } from '../core/auth-error.js';
import type { AuthInfo } from './types.js';

export interface ClaimNames {
  subjectClaim: string;
  scopeClaim: string;
  groupsClaim: string;
}

export function parseScopes(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [];
}

export function parseGroups(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((g) => g.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [];
}

export function authInfoFromClaims(claims: Record<string, unknown>, names: ClaimNames): AuthInfo {
  const subject = [claims[names.subjectClaim], claims.sub, claims.client_id].find((v) => typeof v === 'string' && v.length > 0) as string | undefined;
  if (!subject) throw new AuthError('invalid_token', 'The token names no subject');
  const scopeValue = claims[names.scopeClaim] ?? claims.scope ?? claims.scp;
  return {
    subject,
    scopes: parseScopes(scopeValue),
    groups: parseGroups(claims[names.groupsClaim]),
    claims: { ...claims },
  };
}
