/**
 * The cache fields a 2026-07-28 answer carries itself, where the per-method
 * hints of configuration (`mcp.cacheHints`, given to the SDK as its
 * per-operation hints and stamped by the core routes' encoder) are not the
 * whole answer:
 *
 * - a read whose resource or template declares a `cacheHint`, or that only
 *   some callers may read (core/cache-hint.ts): both fields, resolved field by
 *   field over the per-method hint. Set on the result, they are what the SDK
 *   keeps (a handler's own fields win over its fallback) and what the core
 *   route's encoder writes, so both routes answer alike;
 * - a list that depends on the caller (tools or resources given as a function
 *   of the request, per-request tool views, or items hidden from callers who
 *   may not use them): `cacheScope: 'private'` whatever the configuration says
 *   (the SDK fills `ttlMs` from its hint). The whole list is judged, not a
 *   page, so every page of it claims the same.
 *
 * 2025-era answers carry no cache fields: nothing is added there.
 */
import { restrictsCallers, ownReadHint, type ICacheHint } from '../core/cache-hint.js';
import type { Core } from '../core/core.js';
import type { ProtocolEra, RequestContext } from '../core/request-context.js';
import type { IAccessRequirements } from '../core/types.js';
import type { ListMethod } from './list-pages.js';
import type { ModernEraSupport } from './modern-era.js';

export interface CacheFields {
  ttlMs?: number;
  cacheScope?: 'private' | 'public';
}

const validTtl = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const validScope = (v: unknown): v is 'private' | 'public' => v === 'private' || v === 'public';

/** The fields of a read of `item` on `era` (empty on 2025-era, and where the per-method hint alone decides). */
export function readCacheFields(era: ProtocolEra, modern: ModernEraSupport | undefined, item: (IAccessRequirements & { cacheHint?: ICacheHint }) | undefined): CacheFields {
  if (era !== '2026') return {};
  const own = ownReadHint(item);
  if (!own) return {};
  const base = modern?.cacheHints?.['resources/read'];
  return {
    ttlMs: validTtl(own.ttlMs) ? own.ttlMs : validTtl(base?.ttlMs) ? base.ttlMs : 0,
    cacheScope: validScope(own.cacheScope) ? own.cacheScope : validScope(base?.cacheScope) ? base.cacheScope : 'private',
  };
}

/** Whether the list of `method` (but tools/list) may differ from one caller to another: decided once per server, the registry is fixed. */
const varies = new WeakMap<Core, Map<ListMethod, boolean>>();

function staticListVaries(core: Core, method: Exclude<ListMethod, 'tools/list'>): boolean {
  let known = varies.get(core);
  if (!known) varies.set(core, (known = new Map()));
  const cached = known.get(method);
  if (cached !== undefined) return cached;
  const { registry } = core;
  const hidden = (items: Iterable<IAccessRequirements>) => core.hideUnauthorized && [...items].some(restrictsCallers);
  const answer =
    method === 'prompts/list'
      ? hidden(registry.prompts.values())
      : method === 'resources/list'
        ? registry.resourceSource !== undefined || hidden(registry.resources.values())
        : hidden(registry.templates.map((t) => t.def));
  known.set(method, answer);
  return answer;
}

/**
 * Whether the list of `method` may differ from one caller to another: items of a function of the
 * request (tools, resources), or items hidden from callers who may not use them
 * (`webServer.auth.hideUnauthorized`).
 */
async function listVariesByCaller(core: Core, method: ListMethod, ctx: RequestContext): Promise<boolean> {
  if (method !== 'tools/list') return staticListVaries(core, method);
  const { registry } = core;
  if (registry.hasDynamicTools) return true;
  return core.hideUnauthorized && (await registry.listTools(ctx)).some(restrictsCallers);
}

/** A page of the list of `method` with the fields it must carry itself (`cacheScope: 'private'` for a list that depends on the caller). */
export async function withListCacheFields<T extends object>(core: Core, method: ListMethod, ctx: RequestContext, page: T): Promise<T> {
  return ctx.era === '2026' && (await listVariesByCaller(core, method, ctx)) ? { ...page, cacheScope: 'private' } : page;
}
