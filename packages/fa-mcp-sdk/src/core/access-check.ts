/**
 * Authorization of one item (tool, prompt, resource, route): every scope in
 * `requiredScopes`, and membership in at least one of `requiredGroups`
 * (group names compare case-insensitively); `requireAuth` asks only for an
 * authenticated caller. An item without requirements is
 * open to every caller the transport let in. On stdio without a token the
 * caller is the local user who started the process, trusted by the process
 * boundary.
 */
import type { AuthInfo, TransportKind } from './request-context.js';
import type { IAccessRequirements } from './types.js';
import { AuthError } from './auth-error.js';

/** What an item asks of its caller: the public `IAccessRequirements` of tools, prompts and resources (core/types.ts). */
export type AccessRequirements = IAccessRequirements;

export interface AccessSubject {
  auth?: AuthInfo;
  transport: TransportKind;
}

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; reason: 'unauthenticated' | 'insufficient_scope' | 'not_in_group'; missingScopes: string[]; requiredGroups: string[] };

/** The one answer of an allowed access (decided on every call: no object made for it). */
const ALLOWED: AccessDecision = Object.freeze({ allowed: true });

export function decideAccess(item: AccessRequirements, who: AccessSubject): AccessDecision {
  const scopes = item.requiredScopes ?? [];
  const groups = item.requiredGroups ?? [];
  if (scopes.length === 0 && groups.length === 0 && item.requireAuth !== true) return ALLOWED;
  const auth = who.auth;
  if (!auth) {
    if (who.transport === 'stdio') return ALLOWED;
    return { allowed: false, reason: 'unauthenticated', missingScopes: scopes, requiredGroups: groups };
  }
  const held = new Set(auth.scopes);
  const missingScopes = scopes.filter((s) => !held.has(s));
  if (missingScopes.length > 0) return { allowed: false, reason: 'insufficient_scope', missingScopes, requiredGroups: groups };
  if (groups.length > 0) {
    const mine = new Set(auth.groups.map((g) => g.toLowerCase()));
    if (!groups.some((g) => mine.has(g.toLowerCase()))) return { allowed: false, reason: 'not_in_group', missingScopes: [], requiredGroups: groups };
  }
  return ALLOWED;
}

export function canAccess(item: AccessRequirements, who: AccessSubject): boolean {
  return decideAccess(item, who).allowed;
}

/** Throws the refusal (JSON-RPC -32001 / HTTP 403) when the caller may not use the item. */
export function assertAccess(kind: string, name: string, item: AccessRequirements, who: AccessSubject): void {
  const d = decideAccess(item, who);
  if (d.allowed) return;
  const scopes = item.requiredScopes ?? [];
  if (d.reason === 'unauthenticated') {
    throw new AuthError(scopes.length ? 'insufficient_scope' : 'forbidden', `Forbidden: ${kind} ${name} requires an authenticated caller`, {
      requiredScopes: scopes,
      data: { ...(d.requiredGroups.length ? { requiredGroups: d.requiredGroups } : {}) },
    });
  }
  if (d.reason === 'insufficient_scope') {
    throw new AuthError('insufficient_scope', `Forbidden: ${kind} ${name} requires the scope(s): ${scopes.join(' ')}`, {
      requiredScopes: scopes,
      data: { missingScopes: d.missingScopes },
    });
  }
  throw new AuthError('forbidden', `Forbidden: ${kind} ${name} requires membership in one of the groups: ${d.requiredGroups.join(', ')}`, {
    data: { requiredGroups: d.requiredGroups },
  });
}

/** The items the caller may use (all of them when hiding is off). */
export function visibleItems<T extends AccessRequirements>(items: readonly T[], who: AccessSubject, hide: boolean): T[] {
  return hide ? items.filter((item) => canAccess(item, who)) : [...items];
}
