/**
 * The handler's way back to the client for one request: logging, elicitation,
 * sampling, roots and related notifications through the SDK context.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { IClientChannel, JsonObject, LogLevel } from '../core/types.js';

export function createClientChannel(ctx: ServerContext): IClientChannel {
  const channel: IClientChannel = {
    log: (level: LogLevel, data: unknown, logger?: string) => ctx.mcpReq.log(level, data, logger),
    elicit: async (params: JsonObject) =>
      (await ctx.mcpReq.elicitInput(params as Parameters<ServerContext['mcpReq']['elicitInput']>[0])) as unknown as JsonObject,
    sample: async (params: JsonObject) =>
      (await ctx.mcpReq.requestSampling(params as Parameters<ServerContext['mcpReq']['requestSampling']>[0])) as unknown as JsonObject,
    listRoots: async () => (await ctx.mcpReq.send({ method: 'roots/list' })) as unknown as JsonObject,
    notify: (method: string, params?: JsonObject) => ctx.mcpReq.notify({ method, ...(params ? { params } : {}) }),
  };
  const closeSSE = ctx.http?.closeSSE;
  if (closeSSE) channel.closeStream = () => closeSSE();
  return channel;
}
