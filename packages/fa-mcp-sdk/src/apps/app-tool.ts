/**
 * `appTool`: a tool that renders an MCP Apps view. It carries `_meta.ui`
 * (`resourceUri`, `visibility`) and the flat `_meta["ui/resourceUri"]` older
 * hosts read; a host that renders no views gets it as a plain tool (see
 * tool-view.ts), answered by `fallback` when one is given.
 */
import type { ITool } from '../core/types.js';
import { APP_RESOURCE_URI_META_KEY, APP_URI_SCHEME } from './constants.js';
import { AppViewError, type IAppView } from './app-view.js';

/** Who may call the tool: the model, the view (`app`), or both (the default). */
export type AppToolVisibility = 'model' | 'app';

/** Marks the handler a tool uses for hosts without views. A symbol, so it never reaches the wire. */
export const APP_FALLBACK_HANDLER: unique symbol = Symbol.for('fa-mcp-sdk.app-fallback-handler');

export type AppToolDefinition = ITool & { [APP_FALLBACK_HANDLER]?: ITool['handler'] };

export interface IAppToolOptions extends ITool {
  /** The view (from `appView`) or its `ui://` URI. */
  view: IAppView | string;
  /** Default both; `['app']` makes a tool only the view calls (hidden from hosts without views). */
  visibility?: AppToolVisibility[];
  /** Answers hosts that render no views (a text-only result); default: the tool's own handler. */
  fallback?: ITool['handler'];
}

const VISIBILITIES: readonly string[] = ['model', 'app'];

export function appTool(options: IAppToolOptions): ITool {
  const { view, visibility, fallback, ...tool } = options;
  const resourceUri = typeof view === 'string' ? view : view?.uri;
  if (typeof resourceUri !== 'string' || !resourceUri.startsWith(APP_URI_SCHEME)) {
    throw new AppViewError(`appTool "${tool.name}": "view" must be an appView() or a "${APP_URI_SCHEME}" URI`);
  }
  if (visibility !== undefined) {
    if (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => !VISIBILITIES.includes(v))) {
      throw new AppViewError(`appTool "${tool.name}": "visibility" must be a non-empty list of "model" and "app"`);
    }
  }
  const previousUi = typeof tool._meta?.ui === 'object' && tool._meta.ui !== null ? (tool._meta.ui as Record<string, unknown>) : {};
  const result: AppToolDefinition = {
    ...tool,
    _meta: {
      ...tool._meta,
      ui: { ...previousUi, resourceUri, ...(visibility ? { visibility: [...visibility] } : {}) },
      [APP_RESOURCE_URI_META_KEY]: resourceUri,
    },
  };
  if (fallback) result[APP_FALLBACK_HANDLER] = fallback;
  return result;
}
