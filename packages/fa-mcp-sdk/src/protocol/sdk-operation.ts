/**
 * Runs a request the SDK dispatched to one of the framework's handlers through
 * the core's pipeline: the request context of the SDK's handler context, an
 * operation naming the method and its target, errors mapped the one way every
 * handler maps them. Used for every method but tools/call (tool-call-run.ts).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { InputRequiredSignal } from '../core/client-input.js';
import type { Core } from '../core/core.js';
import { runOperation } from '../core/operation.js';
import type { McpMethod, Operation, OperationTarget } from '../core/pipeline.js';
import type { RequestContext } from '../core/request-context.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import { toProtocolError } from './errors.js';

export interface SdkOperationRequest {
  method: McpMethod;
  target: OperationTarget;
  params: JsonObject | undefined;
  /** The request's client channel, where the method can ask the client for input. */
  client?: IClientChannel;
}

export type SdkOperationRunner = <T>(ctx: ServerContext, request: SdkOperationRequest, terminal: (op: Operation) => Promise<T>, rc?: RequestContext) => Promise<T>;

/** `mapError` turns a core error into another before the mapping (the 2026-07-28 unknown resource). */
const asItIs = (err: unknown): unknown => err;

export function sdkOperationRunner(core: Core, contextOf: (ctx: ServerContext) => RequestContext, mapError: (err: unknown) => unknown = asItIs): SdkOperationRunner {
  return async (ctx, request, terminal, given) => {
    const rc = given ?? contextOf(ctx);
    try {
      return await runOperation(
        core,
        {
          method: request.method,
          target: request.target,
          ctx: rc,
          params: request.params ?? {},
          signal: ctx.mcpReq.signal,
          ...(request.client ? { client: request.client } : {}),
        },
        terminal,
      );
    } catch (err) {
      // Missing client input (2026-07-28) goes on to runWithClientInput, which answers input_required.
      if (err instanceof InputRequiredSignal) throw err;
      throw toProtocolError(mapError(err), rc.requestId, rc.logger ?? core.logger);
    }
  };
}
