/**
 * Operations of the methods that are not `tools/call` (lists, prompts/get,
 * resources/read, completions, subscriptions, task and extension methods):
 * one literal shape, run through the one pipeline. `tools/call` builds its own
 * operation (protocol/tool-call-run.ts) for its progress, client input and
 * lazy signal.
 */
import type { Core } from './core.js';
import { InternalError } from './errors.js';
import { LazyAbort, withLazySignal } from './lazy-abort.js';
import type { McpMethod, Operation, OperationTarget, Terminal } from './pipeline.js';
import type { RequestContext } from './request-context.js';
import type { IClientChannel, JsonObject } from './types.js';

export interface OperationInput {
  method: McpMethod;
  target: OperationTarget;
  ctx: RequestContext;
  params: JsonObject;
  /** The request's signal (SDK path), or a LazyAbort whose signal is made on first read (fast paths). */
  signal: AbortSignal | LazyAbort;
  /** The request's way back to the client; a channel that can only log and notify when the method has none. */
  client?: IClientChannel;
  state?: Operation['state'];
}

const noProgress = (): void => undefined;

/** The channel of requests that cannot ask the client for input (lists, completions, subscriptions). */
export function detachedClient(method: string): IClientChannel {
  const refuse = () => Promise.reject(new InternalError(`${method} cannot ask the client for input`));
  return {
    log: () => Promise.resolve(),
    elicit: refuse,
    sample: refuse,
    listRoots: refuse,
    resumed: false,
    notify: () => Promise.resolve(),
    closeStream: undefined,
  };
}

export function makeOperation(input: OperationInput): Operation {
  const { signal } = input;
  const client = input.client ?? detachedClient(input.method);
  const state = input.state ?? new Map();
  if (signal instanceof LazyAbort) {
    const fields = { method: input.method, target: input.target, caller: input.ctx.auth, ctx: input.ctx, params: input.params, client, sendProgress: noProgress, tool: undefined, state, startTask: undefined };
    return withLazySignal(fields, signal);
  }
  return {
    method: input.method,
    target: input.target,
    caller: input.ctx.auth,
    ctx: input.ctx,
    params: input.params,
    signal,
    client,
    sendProgress: noProgress,
    tool: undefined,
    state,
    startTask: undefined,
  };
}

/** Runs one request of any method but tools/call through the core's pipeline. */
export function runOperation<T>(core: Pick<Core, 'pipeline'>, input: OperationInput, terminal: (op: Operation) => Promise<T>): Promise<T> {
  return core.pipeline.run(makeOperation(input), terminal as Terminal) as Promise<T>;
}

/** The target of a tools/call request. */
export function toolTarget(params: JsonObject): OperationTarget {
  return { kind: 'tool', name: typeof params.name === 'string' ? params.name : '' };
}
