/**
 * Resource listing and reading, independent of the protocol era. What a
 * request may list and read is, in this order: the static resources, those of
 * `McpServerData.resources` given as a function of the request (resolved per
 * request), the templates, and the resources of the request's session
 * (`session.resources.add()`, 2025-era connections). A URI is found at the
 * first of them that has it; a list names each URI once.
 */
import { canAccess } from './access-check.js';
import { withDeprecation } from './deprecation.js';
import { ResourceNotFoundError } from './errors.js';
import type { Operation } from './pipeline.js';
import type { Registry } from './registry.js';
import type { RequestContext } from './request-context.js';
import type { ISessionResource } from './session-types.js';
import type { IAccessRequirements, IResourceContents, IResourceData, IResourceTemplateInfo, TResourceContent } from './types.js';

/** A resource as listed: what IResourceData and ISessionResource have in common. */
type ListedResource = IResourceData | ISessionResource;

export function describeResource(r: ListedResource) {
  const { content: _content, deprecated, requiredScopes: _s, requiredGroups: _g, cacheHint: _c, ...rest } = r as ListedResource & { cacheHint?: unknown };
  if (!deprecated) return rest;
  return { ...rest, description: withDeprecation(rest.description, deprecated) };
}

export function describeTemplate(t: IResourceTemplateInfo) {
  const { read: _read, complete: _complete, requiredScopes: _s, requiredGroups: _g, cacheHint: _c, ...rest } = t;
  return rest;
}

/** Where a URI is served from, for one request. */
export type ResourceMatch =
  | { kind: 'resource'; def: IResourceData }
  | { kind: 'template'; def: IResourceTemplateInfo; variables: Record<string, string> }
  | { kind: 'session'; def: ISessionResource };

/** The key in `op.state` of the match of the URI a resources/read or resources/subscribe names, once looked up. */
const MATCH_STATE = 'fa-mcp-sdk/resource-match';

/** Where `uri` is served from for this request; a promise only when a function or the session must be asked. */
export function matchResource(registry: Registry, uri: string, ctx: RequestContext): ResourceMatch | undefined | Promise<ResourceMatch | undefined> {
  const direct = registry.resources.get(uri);
  if (direct) return { kind: 'resource', def: direct };
  if (!registry.resourceSource) return afterSource(registry, uri, ctx);
  return registry.dynamicResources(ctx).then((resources) => {
    const def = resources.find((r) => r.uri === uri);
    return def ? { kind: 'resource', def } : afterSource(registry, uri, ctx);
  });
}

function afterSource(registry: Registry, uri: string, ctx: RequestContext): ResourceMatch | undefined | Promise<ResourceMatch | undefined> {
  const hit = registry.findTemplate(uri);
  if (hit) return { kind: 'template', def: hit.template.def, variables: hit.variables };
  const session = ctx.session;
  if (!session) return undefined;
  return session.resources.get(uri).then((def) => (def ? { kind: 'session', def } : undefined));
}

/**
 * The match of the URI the operation names (`op.target.name`), looked up once per operation:
 * the authorize step asks first (the resource's access rules), the read then reads what it found.
 */
export function resourceOf(registry: Registry, op: Operation): ResourceMatch | undefined | Promise<ResourceMatch | undefined> {
  if (op.state.has(MATCH_STATE)) return op.state.get(MATCH_STATE) as ResourceMatch | undefined;
  const found = matchResource(registry, op.target.name, op.ctx);
  if (!(found instanceof Promise)) {
    op.state.set(MATCH_STATE, found);
    return found;
  }
  return found.then((match) => {
    op.state.set(MATCH_STATE, match);
    return match;
  });
}

/** The access rules of what a URI names for this request (undefined: nothing serves it). */
export function resourceRequirements(registry: Registry, uri: string, ctx: RequestContext): IAccessRequirements | undefined | Promise<IAccessRequirements | undefined> {
  const found = matchResource(registry, uri, ctx);
  return found instanceof Promise ? found.then((m) => m?.def) : found?.def;
}

/**
 * Every resource this request may list, in order (static, the function's, the session's), each URI
 * once; with `hide` (webServer.auth.hideUnauthorized) without those the caller may not read.
 */
export async function listResources(registry: Registry, ctx: RequestContext, hide: boolean): Promise<ListedResource[]> {
  const listed: ListedResource[] = [...registry.resources.values()];
  const extra = [...(await registry.dynamicResources(ctx)), ...((await ctx.session?.resources.list()) ?? [])];
  if (extra.length > 0) {
    const seen = new Set(listed.map((r) => r.uri));
    for (const r of extra) {
      if (seen.has(r.uri)) continue;
      seen.add(r.uri);
      listed.push(r);
    }
  }
  return hide ? listed.filter((r) => canAccess(r, ctx)) : listed;
}

/** Reads what `match` found for `uri`; the pipeline's authorize step checked the caller before (core/steps/authorize.ts). */
export async function readMatch(uri: string, match: ResourceMatch | undefined, ctx: RequestContext): Promise<IResourceContents[]> {
  if (!match) throw new ResourceNotFoundError(uri);
  switch (match.kind) {
    case 'resource': {
      const { content } = match.def;
      return toContents(uri, match.def.mimeType, typeof content === 'function' ? await content(uri, ctx) : content);
    }
    case 'template':
      return toContents(uri, match.def.mimeType, await match.def.read(uri, match.variables, ctx));
    case 'session':
      return toContents(uri, match.def.mimeType, match.def.content);
  }
}

/** Reads `uri` for this request, looked up as matchResource does. */
export async function readResource(registry: Registry, uri: string, ctx: RequestContext): Promise<IResourceContents[]> {
  return readMatch(uri, await matchResource(registry, uri, ctx), ctx);
}

function toContents(uri: string, mimeType: string | undefined, value: TResourceContent): IResourceContents[] {
  const mime = mimeType ? { mimeType } : {};
  if (typeof value === 'string') return [{ uri, ...mime, text: value }];
  if (Array.isArray(value)) return value;
  if ('blob' in value) return [{ uri, ...mime, blob: value.blob }];
  return [{ uri, ...mime, text: value.text }];
}
