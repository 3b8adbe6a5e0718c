/**
 * What a server with MCP Apps views declares at start: the extension (when it
 * serves a view or a static tool renders one), after checking that every view a
 * static tool names is served.
 */
import type { ServerExtension } from '../core/extensions.js';
import type { IResourceData, TToolsSource } from '../core/types.js';
import { AppViewError } from './app-view.js';
import { APP_EXTENSION_ID, APP_MIME_TYPE } from './constants.js';
import { appResourceUriOf } from './tool-view.js';

export interface AppsExtensionInput {
  resources: Iterable<IResourceData>;
  tools?: TToolsSource;
  /** Whether a resource or resource template serves this URI. */
  serves: (uri: string) => boolean;
}

export function appsExtension(input: AppsExtensionInput): ServerExtension | undefined {
  let rendersViews = [...input.resources].some((r) => r.mimeType === APP_MIME_TYPE);
  if (Array.isArray(input.tools)) {
    for (const tool of input.tools) {
      const uri = appResourceUriOf(tool);
      if (uri === undefined) continue;
      rendersViews = true;
      if (!input.serves(uri)) {
        throw new AppViewError(`Tool "${tool.name}" renders the view ${uri}, but no resource serves it: add the appView's resource to McpServerData.resources`);
      }
    }
  }
  return rendersViews ? { id: APP_EXTENSION_ID, settings: {} } : undefined;
}
