/**
 * The OpenAPI document as one caller may see it: the tools and the declared routes that caller
 * may list, by the rules of tools/list (core/access-check.ts: with `hideUnauthorized`, what
 * needs scopes or groups the caller lacks is left out; a request without credentials is the
 * anonymous caller). Computed per request; the rendered JSON and YAML are kept per visible set,
 * so callers with the same rights share one rendering.
 */
import { dump as dumpYaml } from 'js-yaml';
import { canAccess, visibleItems } from '../core/access-check.js';
import type { Core } from '../core/core.js';
import type { RequestContext } from '../core/request-context.js';
import type { ITool } from '../core/types.js';
import { buildOpenApiDocument, type OpenApiInput } from './openapi.js';

export interface RenderedDocument {
  json: string;
  yaml: string;
}

/** Distinct visible sets kept at once (one per combination of scopes and groups seen; the oldest goes first). */
const MAX_RENDERINGS = 64;

export interface OpenApiView {
  /** The document for the caller of `ctx`. */
  documentFor(ctx: RequestContext): Promise<RenderedDocument>;
}

/** `base` is everything of the document but its tools and routes, which are chosen per caller. */
export function createOpenApiView(core: Core, base: Omit<OpenApiInput, 'tools'>): OpenApiView {
  const routes = base.api.routes ?? [];
  const rendered = new Map<string, RenderedDocument>();
  return {
    async documentFor(ctx) {
      const hide = core.hideUnauthorized;
      // Tools given as a function are resolved per call and left out of the document.
      const all: ITool[] = core.registry.hasDynamicTools ? [] : await core.registry.listTools(ctx);
      const tools = visibleItems(all, ctx, hide);
      const shown = hide ? routes.filter((route) => canAccess({ requiredScopes: route.scopes ?? [] }, ctx)) : routes;
      const key = JSON.stringify([tools.map((t) => t.name), shown.map((route) => routes.indexOf(route))]);
      let doc = rendered.get(key);
      if (!doc) {
        const document = buildOpenApiDocument({ ...base, api: { ...base.api, routes: shown }, tools });
        doc = { json: JSON.stringify(document, null, 2), yaml: dumpYaml(document, { noRefs: true, lineWidth: 120 }) };
        if (rendered.size >= MAX_RENDERINGS) rendered.delete(rendered.keys().next().value as string);
        rendered.set(key, doc);
      }
      return doc;
    },
  };
}
