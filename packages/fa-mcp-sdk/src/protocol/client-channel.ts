/**
 * The handler's way back to the client for one request, one API on both eras:
 * on 2025-era connections elicitation, sampling and roots are real
 * server-to-client requests; on 2026-07-28 they are answered from the
 * request's `inputResponses` (ClientInputSession), a missing answer turning
 * into `input_required`. Logs honour the client's level either way (the SDK
 * reads `logging/setLevel` on 2025, the request's `_meta` level on 2026).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { assertClientCapability } from '../core/client-capabilities.js';
import type { ClientInputSession } from '../core/client-input.js';
import type { IClientChannel, JsonObject, LogLevel } from '../core/types.js';

type ElicitParams = Parameters<ServerContext['mcpReq']['elicitInput']>[0];
type SamplingParams = Parameters<ServerContext['mcpReq']['requestSampling']>[0];

function baseChannel(ctx: ServerContext): Pick<IClientChannel, 'log' | 'notify' | 'closeStream'> {
  const channel: Pick<IClientChannel, 'log' | 'notify' | 'closeStream'> = {
    log: (level: LogLevel, data: unknown, logger?: string) => ctx.mcpReq.log(level, data, logger),
    notify: (method: string, params?: JsonObject) => ctx.mcpReq.notify({ method, ...(params ? { params } : {}) }),
  };
  const closeSSE = ctx.http?.closeSSE;
  if (closeSSE) channel.closeStream = () => closeSSE();
  return channel;
}

/** 2025-era: real server-to-client requests, after the same capability check as 2026. */
export function createLegacyClientChannel(ctx: ServerContext, capabilities: Record<string, unknown>): IClientChannel {
  return {
    ...baseChannel(ctx),
    resumed: false,
    elicit: async (params: JsonObject) => {
      assertClientCapability('elicitation', params, capabilities);
      return (await ctx.mcpReq.elicitInput(params as ElicitParams)) as unknown as JsonObject;
    },
    sample: async (params: JsonObject) => {
      assertClientCapability('sampling', params, capabilities);
      return (await ctx.mcpReq.requestSampling(params as SamplingParams)) as unknown as JsonObject;
    },
    listRoots: async () => {
      assertClientCapability('roots', {}, capabilities);
      return (await ctx.mcpReq.send({ method: 'roots/list' })) as unknown as JsonObject;
    },
  };
}

/** 2026-07-28: answers come from the request (replay model); see ClientInputSession. */
export function createModernClientChannel(ctx: ServerContext, capabilities: Record<string, unknown>, session: ClientInputSession): IClientChannel {
  // Synchronous up to the session's registration, so Promise.all gathers every pending request.
  const ask = (kind: 'elicitation' | 'sampling' | 'roots', params: JsonObject, key?: string): Promise<JsonObject> => {
    try {
      assertClientCapability(kind, params, capabilities);
    } catch (err) {
      return Promise.reject(err);
    }
    return session.ask(kind, params, key);
  };
  return {
    ...baseChannel(ctx),
    resumed: session.resumed,
    elicit: (params, options) => ask('elicitation', params, options?.key),
    sample: (params, options) => ask('sampling', params, options?.key),
    listRoots: (options) => ask('roots', {}, options?.key),
  };
}
