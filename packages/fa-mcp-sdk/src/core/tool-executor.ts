/**
 * The terminal step of tools/call: runs the handler with a signal that aborts on
 * client cancellation or on the tool timeout, and turns a ToolExecutionError into
 * a tool result the model can read.
 */
import { AuditFields, type IAuditFields } from './audit-fields.js';
import { InternalError, RequestCancelledError, TimeoutError } from './errors.js';
import type { IEventEmitter } from './event-port.js';
import { isExposedMcpError, isToolExecutionError } from './error-guards.js';
import type { Operation } from './pipeline.js';
import { HandlerSignal } from './handler-signal.js';
import { abortSourceOf } from './lazy-abort.js';
import type { IClientChannel, IClientInputOptions, IToolHandlerParams, JsonObject, TToolHandlerResponse } from './types.js';
import type { IWebhookSender, WebhookSenderSource } from './webhook-sender.js';

/** `startTask` where the call cannot become a task: resolves at once, doing nothing. */
const noTask = async (): Promise<void> => undefined;

/** `setTaskStatusMessage` of a call that is not a task: nothing to show the stage in. */
const noStage = (): void => undefined;

/** `webhooks` of a server without webhooks: queues nothing. */
const noWebhooks: IWebhookSender = { send: async (_type, _data, options) => ({ id: options?.idempotencyKey ?? '', endpoints: [] }) };

/**
 * The handler's params: plain fields, and `signal` as an own enumerable
 * accessor that makes the controller on first read (HandlerSignal). The
 * getter is one shared function (an object literal's `get signal()` would be
 * a new function, and a new hidden class, per call); the HandlerSignal it
 * reads is private, so spreading or listing the params shows only the fields.
 */
class HandlerParams {
  readonly #abort: HandlerSignal;

  private static readonly signalProperty: PropertyDescriptor = {
    get(this: object): AbortSignal {
      return HandlerParams.ownerOf(this).#abort.signal;
    },
    // Writable as the plain property it stands for.
    set(this: object, value: unknown) {
      Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  };

  /** The params themselves, or the params an object was made from (`Object.create(params)`). */
  private static ownerOf(receiver: object): HandlerParams {
    let owner: object | null = receiver;
    while (owner && !(#abort in owner)) owner = Object.getPrototypeOf(owner) as object | null;
    return owner as HandlerParams;
  }

  constructor(abort: HandlerSignal) {
    this.#abort = abort;
    Object.defineProperty(this, 'signal', HandlerParams.signalProperty);
  }
}

function handlerParams(abort: HandlerSignal, fields: Omit<IToolHandlerParams, 'signal'>): IToolHandlerParams {
  return Object.assign(new HandlerParams(abort), fields) as unknown as IToolHandlerParams;
}

/** `params.events` of a server that declares no event types: every emit is refused. */
const noEvents: IEventEmitter = {
  emit: (name) => Promise.reject(new InternalError(`Cannot emit ${name}: the server declares no event types (McpServerData.events)`)),
};

export type ToolHandler = (params: IToolHandlerParams) => Promise<TToolHandlerResponse> | TToolHandlerResponse;

/** `params.audit` of a call no audit trail records (`mcp.audit.sink: off`): values are checked, then dropped. */
const uncountedAudit: IAuditFields = { set: (name, value) => new AuditFields().set(name, value) };

export interface ToolExecutorOptions {
  defaultHandler?: ToolHandler;
  /** The operator's timeout for a tool (config `toolTimeouts`), if any, else undefined. */
  configuredTimeoutMs: (toolName: string) => number | undefined;
  defaultTimeoutMs: number;
  /** What handlers get as `webhooks`, scoped to the caller of each request (webhooks/webhook-sender.ts). */
  webhooks?: WebhookSenderSource;
  /** What handlers get as `events`: the emitter of the server's event types (src/events). */
  events?: IEventEmitter;
  /** The server declares `logging`; when false, `client.log()` resolves without sending (the protocol allows no log message then). */
  logsToClient?: boolean;
}

/**
 * The client channel with `log` sending nothing, everything else as it is. A class of one fixed shape:
 * a per-call `Object.create(client, …)` made every call's channel a prototype, which V8 handles on a
 * slow path (2026-07-28 calls cost 1.9× the CPU with it).
 */
class ChannelWithoutLogs implements IClientChannel {
  constructor(private readonly inner: IClientChannel) {}
  log(): Promise<void> {
    return Promise.resolve();
  }
  elicit(params: JsonObject, options?: IClientInputOptions): Promise<JsonObject> {
    return this.inner.elicit(params, options);
  }
  sample(params: JsonObject, options?: IClientInputOptions): Promise<JsonObject> {
    return this.inner.sample(params, options);
  }
  listRoots(options?: IClientInputOptions): Promise<JsonObject> {
    return this.inner.listRoots(options);
  }
  get resumed(): boolean {
    return this.inner.resumed;
  }
  notify(method: string, params?: JsonObject): Promise<void> {
    return this.inner.notify(method, params);
  }
  get closeStream(): (() => void) | undefined {
    return this.inner.closeStream;
  }
}

export function createToolExecutor(opts: ToolExecutorOptions) {
  // Thens, not async/await: every tool call comes through here, and each async layer cost it a promise and a turn.
  return function executeTool(op: Operation): Promise<TToolHandlerResponse> {
    const tool = op.tool;
    if (!tool) return Promise.reject(new InternalError('tools/call reached execution without a resolved tool'));
    const handler = tool.handler ?? opts.defaultHandler;
    if (!handler) return Promise.reject(new InternalError(`No handler for tool ${tool.name}`));

    // The operator's configuration wins over the tool author's default.
    const timeoutMs = opts.configuredTimeoutMs(tool.name) ?? tool.timeoutMs ?? opts.defaultTimeoutMs;
    // Aborted on cancellation or timeout; its controller is made only if the handler reads it.
    const abort = new HandlerSignal(abortSourceOf(op));

    const params = handlerParams(abort, {
      name: tool.name,
      arguments: (op.params.arguments as JsonObject | undefined) ?? {},
      sendProgress: op.sendProgress,
      clientCapabilities: op.ctx.clientCapabilities,
      client: opts.logsToClient === false ? new ChannelWithoutLogs(op.client) : op.client,
      context: op.ctx,
      session: op.ctx.session,
      startTask: op.startTask ?? noTask,
      setTaskStatusMessage: op.setTaskStatusMessage ?? noStage,
      audit: op.ctx.audit ?? uncountedAudit,
      webhooks: opts.webhooks ? opts.webhooks.forRequest(op.ctx) : noWebhooks,
      events: opts.events ?? noEvents,
    });
    if (op.ctx.headers) params.headers = op.ctx.headers;

    let timer: NodeJS.Timeout | undefined;
    // The handler's outcome or the timeout, whichever comes first; the handler runs in a microtask (a throw rejects).
    const settled = new Promise<unknown>((resolve, reject) => {
      timer = setTimeout(() => {
        const err = new TimeoutError(`Tool ${tool.name} timed out after ${timeoutMs} ms`, { tool: tool.name, timeoutMs });
        abort.abort(err);
        reject(err);
      }, timeoutMs);
      timer.unref();
      // A promise job, not queueMicrotask: fake clocks in consumers' tests leave promise jobs alone.
      Promise.resolve(params).then(handler).then(resolve, reject);
    });
    const end = () => {
      if (timer) clearTimeout(timer);
      abort.end();
    };
    return settled.then(
      (result) => {
        try {
          return normalizeResult(result, tool.name);
        } finally {
          end();
        }
      },
      (err: unknown) => {
        try {
          return failureResult(err, op);
        } finally {
          end();
        }
      },
    );
  };
}

/** A handler's failure: a ToolExecutionError is a result the model reads; anything else is thrown on, a cancellation said as one. */
function failureResult(err: unknown, op: Operation): TToolHandlerResponse {
  if (isToolExecutionError(err)) {
    return { content: [{ type: 'text', text: err.message }], isError: true, ...(err.data ? { structuredContent: { error: err.message, ...err.data } } : {}) };
  }
  if (isExposedMcpError(err)) throw err;
  // The handler stopped because the client cancelled: say so, instead of an unexpected error.
  const cancel = abortSourceOf(op);
  if (cancel.aborted) throw new RequestCancelledError(cancel.reason, err);
  throw err;
}

function normalizeResult(result: unknown, toolName: string): TToolHandlerResponse {
  if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
  if (!result || typeof result !== 'object' || !Array.isArray((result as { content?: unknown }).content)) {
    throw new InternalError(`Tool ${toolName} returned a value that is not a tool result (expected { content: [...] })`);
  }
  return result as TToolHandlerResponse;
}
