/**
 * Protocol extensions a server declares under `capabilities.extensions`
 * (SEP-2133), with the request methods they add. Plain data and functions, so
 * the protocol adapter of either era serves them the same way.
 */
import type { RequestContext } from './request-context.js';
import type { JsonObject } from './types.js';

export interface ExtensionMethod {
  /** JSON Schema of the request params; params that fail it are answered with -32602. */
  params: JsonObject;
  handle(params: JsonObject, ctx: RequestContext): Promise<JsonObject> | JsonObject;
}

export interface ServerExtension {
  /** The identifier under `capabilities.extensions`, e.g. `io.modelcontextprotocol/skills`. */
  id: string;
  /** The settings declared for it (`{}` when it has none). */
  settings: JsonObject;
  /** Methods the extension adds, by method name. */
  methods?: Record<string, ExtensionMethod>;
}

/** The `capabilities.extensions` object, or undefined when the server declares none. */
export function extensionCapabilities(extensions: readonly ServerExtension[]): Record<string, JsonObject> | undefined {
  if (extensions.length === 0) return undefined;
  const out: Record<string, JsonObject> = {};
  for (const ext of extensions) {
    if (out[ext.id]) throw new Error(`Extension "${ext.id}" is declared twice`);
    out[ext.id] = { ...ext.settings };
  }
  return out;
}
