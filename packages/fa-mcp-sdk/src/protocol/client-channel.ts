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

/** The request's own way back to the client, as both serving paths supply it (the SDK's context or the 2026 fast path). */
export interface RequestPort {
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  notify(notification: { method: string; params?: JsonObject }): Promise<void>;
  /** Ends the request's SSE stream (2025-era resumability); absent where there is none. */
  closeSSE?: () => void;
}

/** The port of a request the SDK serves. */
export function sdkPort(ctx: ServerContext): RequestPort {
  const port: RequestPort = {
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
    notify: (notification) => ctx.mcpReq.notify(notification),
  };
  const closeSSE = ctx.http?.closeSSE;
  if (closeSSE) port.closeSSE = () => closeSSE();
  return port;
}

function baseChannel(port: RequestPort): Pick<IClientChannel, 'log' | 'notify' | 'closeStream'> {
  const channel: Pick<IClientChannel, 'log' | 'notify' | 'closeStream'> = {
    log: (level: LogLevel, data: unknown, logger?: string) => port.log(level, data, logger),
    notify: (method: string, params?: JsonObject) => port.notify({ method, ...(params ? { params } : {}) }),
  };
  const closeSSE = port.closeSSE;
  if (closeSSE) channel.closeStream = () => closeSSE();
  return channel;
}

/**
 * 2025-era: real server-to-client requests, after the same capability check as 2026.
 * `onRequestStream`: send them on the stream of the request being served (an SSE
 * response, stdio, legacy SSE), where the client is sure to read them. Without it
 * (Streamable HTTP with JSON responses, which has no stream per request) they go
 * on the session's GET stream, as the SDK does by default.
 */
export function createLegacyClientChannel(ctx: ServerContext, capabilities: Record<string, unknown>, onRequestStream = false): IClientChannel {
  const related = onRequestStream ? { relatedRequestId: ctx.mcpReq.id } : undefined;
  return {
    ...baseChannel(sdkPort(ctx)),
    resumed: false,
    elicit: async (params: JsonObject) => {
      assertClientCapability('elicitation', params, capabilities);
      return (await ctx.mcpReq.elicitInput(params as ElicitParams, related)) as unknown as JsonObject;
    },
    sample: async (params: JsonObject) => {
      assertClientCapability('sampling', params, capabilities);
      return (await ctx.mcpReq.requestSampling(params as SamplingParams, related)) as unknown as JsonObject;
    },
    listRoots: async () => {
      assertClientCapability('roots', {}, capabilities);
      return (await ctx.mcpReq.send({ method: 'roots/list' }, related)) as unknown as JsonObject;
    },
  };
}

/** 2026-07-28: answers come from the request (replay model); see ClientInputSession. */
export function createModernClientChannel(port: RequestPort, capabilities: Record<string, unknown>, session: ClientInputSession): IClientChannel {
  // Synchronous up to the session's registration, so Promise.all gathers every pending request.
  const ask = (kind: 'elicitation' | 'sampling' | 'roots', params: JsonObject, key?: string): Promise<JsonObject> => {
    try {
      assertClientCapability(kind, params, capabilities);
    } catch (err) {
      return Promise.reject(err);
    }
    return session.ask(kind, params, key);
  };
  // Built in one literal (no spread): one is made for every 2026-07-28 call.
  const channel: IClientChannel = {
    log: (level: LogLevel, data: unknown, logger?: string) => port.log(level, data, logger),
    notify: (method: string, params?: JsonObject) => port.notify({ method, ...(params ? { params } : {}) }),
    resumed: session.resumed,
    elicit: (params, options) => ask('elicitation', params, options?.key),
    sample: (params, options) => ask('sampling', params, options?.key),
    listRoots: (options) => ask('roots', {}, options?.key),
  };
  const closeSSE = port.closeSSE;
  if (closeSSE) channel.closeStream = () => closeSSE();
  return channel;
}
