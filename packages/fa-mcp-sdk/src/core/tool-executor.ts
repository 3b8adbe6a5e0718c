/**
 * The terminal step of tools/call: runs the handler with a signal that aborts on
 * client cancellation or on the tool timeout, and turns a ToolExecutionError into
 * a tool result the model can read.
 */
import { BaseMcpError, InternalError, TimeoutError, ToolExecutionError } from './errors.js';
import type { Operation } from './pipeline.js';
import type { IToolHandlerParams, JsonObject, TToolHandlerResponse } from './types.js';

export type ToolHandler = (params: IToolHandlerParams) => Promise<TToolHandlerResponse> | TToolHandlerResponse;

export interface ToolExecutorOptions {
  defaultHandler?: ToolHandler;
  /** The operator's timeout for a tool (config `toolTimeouts`), if any, else undefined. */
  configuredTimeoutMs: (toolName: string) => number | undefined;
  defaultTimeoutMs: number;
}

export function createToolExecutor(opts: ToolExecutorOptions) {
  return async function executeTool(op: Operation): Promise<TToolHandlerResponse> {
    const tool = op.tool;
    if (!tool) throw new InternalError('tools/call reached execution without a resolved tool');
    const handler = tool.handler ?? opts.defaultHandler;
    if (!handler) throw new InternalError(`No handler for tool ${tool.name}`);

    // The operator's configuration wins over the tool author's default.
    const timeoutMs = opts.configuredTimeoutMs(tool.name) ?? tool.timeoutMs ?? opts.defaultTimeoutMs;
    const controller = new AbortController();
    const onCancel = () => controller.abort(op.signal.reason);
    if (op.signal.aborted) controller.abort(op.signal.reason);
    else op.signal.addEventListener('abort', onCancel, { once: true });

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new TimeoutError(`Tool ${tool.name} timed out after ${timeoutMs} ms`, { tool: tool.name, timeoutMs });
        controller.abort(err);
        reject(err);
      }, timeoutMs);
      timer.unref();
    });

    const params: IToolHandlerParams = {
      name: tool.name,
      arguments: (op.params.arguments as JsonObject | undefined) ?? {},
      signal: controller.signal,
      sendProgress: op.sendProgress,
      clientCapabilities: op.ctx.clientCapabilities,
      client: op.client,
      context: op.ctx,
      startTask: op.startTask ?? (async () => undefined),
    };
    if (op.ctx.headers) params.headers = op.ctx.headers;

    try {
      const result = await Promise.race([Promise.resolve().then(() => handler(params)), timeout]);
      return normalizeResult(result, tool.name);
    } catch (err) {
      if (err instanceof ToolExecutionError) {
        return { content: [{ type: 'text', text: err.message }], isError: true, ...(err.data ? { structuredContent: { error: err.message, ...err.data } } : {}) };
      }
      if (err instanceof BaseMcpError) throw err;
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
      op.signal.removeEventListener('abort', onCancel);
    }
  };
}

function normalizeResult(result: unknown, toolName: string): TToolHandlerResponse {
  if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
  if (!result || typeof result !== 'object' || !Array.isArray((result as { content?: unknown }).content)) {
    throw new InternalError(`Tool ${toolName} returned a value that is not a tool result (expected { content: [...] })`);
  }
  return result as TToolHandlerResponse;
}
