/**
 * The client channel of a task running in the background on a 2025-era
 * connection: requests go to the client through the connection's server
 * (there is no originating request any more to relate them to).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { assertClientCapability } from '../core/client-capabilities.js';
import type { IClientChannel, JsonObject, LogLevel } from '../core/types.js';

export function createTaskClientChannel(server: McpServer): IClientChannel {
  const low = server.server;
  // The same rule as a synchronous call: asking for what the client did not declare is -32021.
  const declared = () => (low.getClientCapabilities() as Record<string, unknown> | undefined) ?? {};
  return {
    log: (level: LogLevel, data: unknown, logger?: string) => low.sendLoggingMessage({ level, data, ...(logger ? { logger } : {}) }),
    elicit: async (params: JsonObject) => {
      assertClientCapability('elicitation', params, declared());
      return (await low.elicitInput(params as Parameters<typeof low.elicitInput>[0])) as unknown as JsonObject;
    },
    sample: async (params: JsonObject) => {
      assertClientCapability('sampling', params, declared());
      return (await low.createMessage(params as Parameters<typeof low.createMessage>[0])) as unknown as JsonObject;
    },
    listRoots: async () => {
      assertClientCapability('roots', {}, declared());
      return (await low.listRoots()) as unknown as JsonObject;
    },
    resumed: false,
    notify: (method: string, params?: JsonObject) => low.notification({ method, ...(params ? { params } : {}) } as Parameters<typeof low.notification>[0]),
  };
}
