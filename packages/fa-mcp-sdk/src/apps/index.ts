/** Public API of MCP Apps support (re-exported by the package index). */
export { appView, AppViewError, type IAppView, type IAppViewOptions, type IAppViewCsp, type IAppViewPermissions } from './app-view.js';
export { appTool, type IAppToolOptions, type AppToolVisibility } from './app-tool.js';
export { getAppCapability, supportsApps, type IAppClientCapability } from './capability.js';
export { APP_EXTENSION_ID, APP_MIME_TYPE, APP_RESOURCE_URI_META_KEY } from './constants.js';
