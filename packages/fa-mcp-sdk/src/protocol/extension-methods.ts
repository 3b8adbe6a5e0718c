/**
 * Serves the methods of the extensions the core declares (skills/list,
 * skills/get, resources/directory/read …) on an SDK server of either era: params
 * checked against the method's JSON Schema (-32602 otherwise), run through the
 * core's pipeline, errors mapped the one way every other handler maps them.
 * Their capability is declared by capabilities.ts (extensionsCapability).
 */
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import type { JsonObject } from '../core/types.js';
import type { SdkOperationRunner } from './sdk-operation.js';

/** Each method runs through the core's pipeline (`runOp`), its target the extension (`{ kind: 'extension', name: id }`). */
export function registerExtensionMethods(server: McpServer, core: Core, runOp: SdkOperationRunner): void {
  for (const extension of core.extensions) {
    for (const [method, def] of Object.entries(extension.methods ?? {})) {
      const params = fromJsonSchema(def.params as Parameters<typeof fromJsonSchema>[0]);
      server.server.setRequestHandler(method, { params }, (value, ctx) =>
        runOp(ctx, { method, target: { kind: 'extension', name: extension.id }, params: value as JsonObject }, async (op) => (await def.handle(op.params, op.ctx)) as never),
      );
    }
  }
}
