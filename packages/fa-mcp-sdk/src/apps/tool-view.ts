/**
 * The per-request view of a tool for MCP Apps: a host that declared the
 * extension sees the tool as written; any other client sees a plain tool
 * (no `_meta.ui`, answered by the fallback handler when there is one), and does
 * not see tools only a view may call.
 */
import type { RequestContext } from '../core/request-context.js';
import type { ITool, JsonObject } from '../core/types.js';
import { APP_FALLBACK_HANDLER, type AppToolDefinition } from './app-tool.js';
import { supportsApps } from './capability.js';
import { APP_RESOURCE_URI_META_KEY } from './constants.js';

/** The view's URI a tool renders, from `_meta.ui.resourceUri` or the flat legacy key. */
export function appResourceUriOf(tool: Pick<ITool, '_meta'>): string | undefined {
  const meta = tool._meta;
  if (!meta) return undefined;
  const ui = meta.ui as { resourceUri?: unknown } | undefined;
  const uri = typeof ui === 'object' && ui !== null ? ui.resourceUri : undefined;
  if (typeof uri === 'string') return uri;
  const legacy = meta[APP_RESOURCE_URI_META_KEY];
  return typeof legacy === 'string' ? legacy : undefined;
}

function isAppOnly(tool: ITool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) && visibility.length > 0 && !visibility.includes('model');
}

function plainVariant(tool: AppToolDefinition): ITool {
  const { ui: _ui, [APP_RESOURCE_URI_META_KEY]: _legacy, ...rest } = tool._meta as JsonObject;
  const { [APP_FALLBACK_HANDLER]: fallback, _meta: _m, ...plain } = tool;
  const variant: ITool = { ...plain, ...(Object.keys(rest).length > 0 ? { _meta: rest } : {}) };
  if (fallback) variant.handler = fallback;
  return variant;
}

export type ToolView = (tool: ITool, ctx: RequestContext) => ITool | undefined;

/** Builds the view function the registry applies on tools/list and tools/call. Plain variants are made once per tool. */
export function createAppToolView(): ToolView {
  const plain = new WeakMap<ITool, ITool>();
  return (tool, ctx) => {
    if (appResourceUriOf(tool) === undefined || supportsApps(ctx)) return tool;
    if (isAppOnly(tool)) return undefined;
    let variant = plain.get(tool);
    if (!variant) {
      variant = plainVariant(tool);
      plain.set(tool, variant);
    }
    return variant;
  };
}
