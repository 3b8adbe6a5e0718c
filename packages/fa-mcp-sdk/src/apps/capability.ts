/**
 * Capability negotiation of MCP Apps: a host that renders views declares
 * `capabilities.extensions["io.modelcontextprotocol/ui"]` with the view MIME
 * type in `mimeTypes`. Read per request, from the request's client capabilities,
 * so one server answers a host with views and a plain client differently.
 */
import type { RequestContext } from '../core/request-context.js';
import { APP_EXTENSION_ID, APP_MIME_TYPE } from './constants.js';

export interface IAppClientCapability {
  mimeTypes?: string[];
  [key: string]: unknown;
}

type CapabilitiesSource = Record<string, unknown> | Pick<RequestContext, 'clientCapabilities'> | null | undefined;

function capabilitiesOf(source: CapabilitiesSource): Record<string, unknown> | undefined {
  if (!source) return undefined;
  if ('clientCapabilities' in source && typeof source.clientCapabilities === 'object') {
    return (source.clientCapabilities ?? undefined) as Record<string, unknown> | undefined;
  }
  return source as Record<string, unknown>;
}

/** The MCP Apps settings the client declared, or undefined when it declared none. */
export function getAppCapability(source: CapabilitiesSource): IAppClientCapability | undefined {
  const extensions = capabilitiesOf(source)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const value = (extensions as Record<string, unknown>)[APP_EXTENSION_ID];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IAppClientCapability) : undefined;
}

/**
 * True when the client renders MCP Apps views: it declared the extension with
 * `text/html;profile=mcp-app` among its MIME types. Takes the client
 * capabilities or anything carrying them (a RequestContext, handler params).
 */
export function supportsApps(source: CapabilitiesSource): boolean {
  const mimeTypes = getAppCapability(source)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}
