/**
 * Cache hints of single items (2026-07-28 `ttlMs` / `cacheScope`): the hint a
 * resource or a template declares for its reads, over the per-method hint of
 * configuration (`mcp.cacheHints`), field by field as the SDK resolves its own
 * per-resource hints. An answer never claims more than its content allows: what
 * only some callers may read is never `public` (a shared cache would hand it
 * to the others).
 */
import type { IAccessRequirements } from './item-types.js';

/** A cache hint: how long a client may reuse a result, and whether shared caches may keep it. */
export interface ICacheHint {
  /** Milliseconds a client may reuse the result (a non-negative integer; 0: do not reuse). */
  ttlMs?: number;
  /** `private`: only the requesting client may cache it; `public`: shared caches may too. */
  cacheScope?: 'private' | 'public';
}

/** Whether only some callers may use the item (scopes, groups or an authenticated caller required). */
export function restrictsCallers(item: IAccessRequirements): boolean {
  return (item.requiredScopes?.length ?? 0) > 0 || (item.requiredGroups?.length ?? 0) > 0 || item.requireAuth === true;
}

/**
 * The hint a read of `item` carries on its own (undefined: the per-method hint alone): the item's
 * `cacheHint`, made `private` when only some callers may read it.
 */
export function ownReadHint(item: (IAccessRequirements & { cacheHint?: ICacheHint }) | undefined): ICacheHint | undefined {
  if (!item) return undefined;
  if (restrictsCallers(item)) return { ...item.cacheHint, cacheScope: 'private' };
  return item.cacheHint && (item.cacheHint.ttlMs !== undefined || item.cacheHint.cacheScope !== undefined) ? item.cacheHint : undefined;
}

/** Throws when a declared hint is not one the protocol allows (checked at start, with the item's name). */
export function assertValidCacheHint(where: string, hint: ICacheHint | undefined): void {
  if (!hint) return;
  if (hint.ttlMs !== undefined && !(Number.isSafeInteger(hint.ttlMs) && hint.ttlMs >= 0)) {
    throw new Error(`${where}: cacheHint.ttlMs must be a non-negative integer (ms), got ${String(hint.ttlMs)}`);
  }
  if (hint.cacheScope !== undefined && hint.cacheScope !== 'private' && hint.cacheScope !== 'public') {
    throw new Error(`${where}: cacheHint.cacheScope must be "private" or "public", got ${JSON.stringify(hint.cacheScope)}`);
  }
}
