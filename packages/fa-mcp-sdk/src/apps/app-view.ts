/**
 * `appView`: one bundled HTML view of MCP Apps, served as a `ui://` resource
 * with the app MIME type, and the `_meta` a tool carries to render it.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError, MCP_ERROR_CODES } from '../core/errors.js';
import type { IIcon, IResourceData, JsonObject } from '../core/types.js';
import { APP_MIME_TYPE, APP_RESOURCE_URI_META_KEY, APP_URI_SCHEME } from './constants.js';

/** Origins the view may reach; the host turns them into its Content-Security-Policy. */
export interface IAppViewCsp {
  /** fetch / XHR / WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media. */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser permissions the view asks for; a host may grant them, a view must not assume them. */
export interface IAppViewPermissions {
  camera?: JsonObject;
  microphone?: JsonObject;
  geolocation?: JsonObject;
  clipboardWrite?: JsonObject;
}

export interface IAppViewOptions {
  /** `ui://<server>/<view>`, e.g. `ui://weather/forecast.html`. */
  uri: string;
  /** Resource name (default: the last path segment of the URI). */
  name?: string;
  title?: string;
  description?: string;
  icons?: IIcon[];
  /** The whole view as one HTML document (scripts and styles inlined). */
  html?: string;
  /** Or a file holding it: a path relative to the working directory, an absolute path or a `file:` URL. Read once, at start. */
  file?: string | URL;
  csp?: IAppViewCsp;
  permissions?: IAppViewPermissions;
  /** A dedicated sandbox origin, in the format the host documents. */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
}

export interface IAppView {
  uri: string;
  /** The resource serving the HTML: put it in `McpServerData.resources`. */
  resource: IResourceData;
  /** The `_meta` of a tool that renders this view (what `appTool` sets). */
  toolMeta: JsonObject;
}

/** A view that cannot be served; stops the start. Its message names files, so it is not exposed (-32603 if it reaches a client). */
export class AppViewError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'AppViewError';
  override readonly expose: boolean = false;
  constructor(message: string) {
    super(message, MCP_ERROR_CODES.INTERNAL_ERROR, 500);
  }
}

export function appView(options: IAppViewOptions): IAppView {
  const { uri } = options;
  if (typeof uri !== 'string' || !uri.startsWith(APP_URI_SCHEME) || uri.length === APP_URI_SCHEME.length) {
    throw new AppViewError(`appView: the view URI must start with "${APP_URI_SCHEME}" (got ${JSON.stringify(uri)})`);
  }
  const html = readHtml(options);
  const uiMeta = resourceUiMeta(options);
  const meta = uiMeta ? { ui: uiMeta } : undefined;
  const resource: IResourceData = {
    uri,
    name: options.name ?? (uri.slice(APP_URI_SCHEME.length).split('/').filter(Boolean).pop() as string),
    mimeType: APP_MIME_TYPE,
    size: Buffer.byteLength(html, 'utf8'),
    ...(options.title ? { title: options.title } : {}),
    ...(options.description ? { description: options.description } : {}),
    ...(options.icons ? { icons: options.icons } : {}),
    ...(meta ? { _meta: meta } : {}),
    content: () => [{ uri, mimeType: APP_MIME_TYPE, text: html, ...(meta ? { _meta: meta } : {}) }],
  };
  return { uri, resource, toolMeta: { ui: { resourceUri: uri }, [APP_RESOURCE_URI_META_KEY]: uri } };
}

function readHtml(options: IAppViewOptions): string {
  const { html, file } = options;
  if ((html === undefined) === (file === undefined)) {
    throw new AppViewError(`appView ${options.uri}: give exactly one of "html" and "file"`);
  }
  if (html !== undefined) {
    if (typeof html !== 'string' || html.trim() === '') throw new AppViewError(`appView ${options.uri}: "html" is empty`);
    return html;
  }
  const path = file instanceof URL ? fileURLToPath(file) : isAbsolute(file as string) ? (file as string) : resolve(file as string);
  try {
    const text = readFileSync(path, 'utf8');
    if (text.trim() === '') throw new AppViewError(`appView ${options.uri}: ${path} is empty`);
    return text;
  } catch (err) {
    if (err instanceof AppViewError) throw err;
    throw new AppViewError(`appView ${options.uri}: cannot read ${path}: ${(err as Error).message}`);
  }
}

function resourceUiMeta(options: IAppViewOptions): JsonObject | undefined {
  const ui: JsonObject = {};
  if (options.csp) ui.csp = { ...options.csp };
  if (options.permissions) ui.permissions = { ...options.permissions };
  if (options.domain) ui.domain = options.domain;
  if (options.prefersBorder !== undefined) ui.prefersBorder = options.prefersBorder;
  return Object.keys(ui).length > 0 ? ui : undefined;
}
