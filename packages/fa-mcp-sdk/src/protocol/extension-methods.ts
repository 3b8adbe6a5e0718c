/**
 * Serves the methods of the extensions the core declares (skills/list,
 * skills/get, resources/directory/read …) on an SDK server of either era: params
 * checked against the method's JSON Schema (-32602 otherwise), errors mapped the
 * one way every other handler maps them.
 */
import { fromJsonSchema, type McpServer, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import { extensionCapabilities } from '../core/extensions.js';
import type { RequestContext } from '../core/request-context.js';
import type { JsonObject } from '../core/types.js';
import { toProtocolError } from './errors.js';

/** `capabilities.extensions` of the server, or nothing when it declares none. */
export function extensionsCapability(core: Core, protocolExtensions: readonly string[] = []): Pick<ServerCapabilities, 'extensions'> {
  // Protocol-level extensions served by the framework itself (the tasks extension), with no settings.
  const extensions = { ...(extensionCapabilities(core.extensions) ?? {}), ...Object.fromEntries(protocolExtensions.map((id) => [id, {}])) };
  // Settings are JSON data by contract (ServerExtension.settings); the SDK types them as JSON values.
  return Object.keys(extensions).length > 0 ? { extensions: extensions as ServerCapabilities['extensions'] } : {};
}

export function registerExtensionMethods(server: McpServer, core: Core, contextOf: (ctx: ServerContext) => RequestContext): void {
  for (const extension of core.extensions) {
    for (const [method, def] of Object.entries(extension.methods ?? {})) {
      const params = fromJsonSchema(def.params as Parameters<typeof fromJsonSchema>[0]);
      server.server.setRequestHandler(method, { params }, async (value, ctx) => {
        const rc = contextOf(ctx);
        try {
          return await def.handle(value as JsonObject, rc);
        } catch (err) {
          throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
        }
      });
    }
  }
}
