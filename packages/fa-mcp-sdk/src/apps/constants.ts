/**
 * Wire constants of the MCP Apps extension (SEP-1865, `@modelcontextprotocol/ext-apps`
 * 2.x, specification 2026-01-26). The values are the ones that package exports.
 */

/** The identifier under `capabilities.extensions` that a host declares to render views. */
export const APP_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The MIME type of a view: HTML with the MCP Apps profile. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The URI scheme of view resources. */
export const APP_URI_SCHEME = 'ui://';

/** The flat `_meta` key older hosts read for a tool's view (beside `_meta.ui.resourceUri`). */
export const APP_RESOURCE_URI_META_KEY = 'ui/resourceUri';
