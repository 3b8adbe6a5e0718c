/**
 * The one request pipeline: an ordered list of small steps, each a function of
 * the operation and the next step. Every client-to-server request of every
 * transport and protocol era (lists, calls, reads, completions, subscriptions,
 * task and extension methods) calls `Pipeline.run`, so no step can be skipped
 * by one path and kept by another.
 */
import type { KnownMcpMethod } from './methods.js';
import type { AuthInfo, RequestContext } from './request-context.js';
import type { IClientChannel, ITool, JsonObject } from './types.js';

/**
 * The methods the pipeline runs: the known ones (methods.ts). Extension methods
 * (skills, MCP Apps, a consumer's own) are plain strings, so the type stays open.
 */
export type McpMethod =
  | KnownMcpMethod
  // Any other method name (extension methods); keeps the literals above offered by editors.
  | (string & {});

/**
 * What an operation is about: a tool, prompt, resource (by URI), resource
 * template (by URI template, for completions), task (by id), a list (`tools`,
 * `prompts`, `resources`, `templates`, `tasks`, `events`), an event type (by name, the
 * `events/*` methods but events/list), an extension method (by
 * extension id), or the server itself (`logging/setLevel`, `subscriptions/listen`).
 */
export type OperationTargetKind = 'tool' | 'prompt' | 'resource' | 'template' | 'task' | 'list' | 'extension' | 'event' | 'server';

export interface OperationTarget {
  kind: OperationTargetKind;
  /** The tool or prompt name, resource URI, URI template, task id, list or extension id; '' when the request names none. */
  name: string;
}

export interface Operation {
  /** The MCP method, e.g. `tools/call`. */
  method: McpMethod;
  /** What the request is about (tools/call: `{ kind: 'tool', name }`). */
  target: OperationTarget;
  /** Who asks: the verified caller of the request context (`ctx.auth`); undefined when anonymous. */
  caller: AuthInfo | undefined;
  ctx: RequestContext;
  /** The request's params (arguments live under `params.arguments` for tools/call). */
  params: JsonObject;
  /** Aborted when the client cancels or the connection closes. */
  signal: AbortSignal;
  client: IClientChannel;
  sendProgress: (progress: number, total?: number, message?: string) => void;
  /** Set by the resolve step for tools/call. */
  tool?: ITool;
  /** Free-form bag for consumer steps (audit, tenancy, caching). */
  state: Map<string, unknown>;
  /**
   * Turns the rest of this call into a task (2026-07-28 tasks extension, tools
   * with `execution.taskStart: 'handler'`); absent where the call cannot become one.
   */
  startTask?: () => Promise<void>;
  /** Sets the stage of the task this call runs as (its `statusMessage`); absent while the call is not a task. */
  setTaskStatusMessage?: (message: string) => void;
}

export type Next = () => Promise<unknown>;

export interface PipelineStep {
  /** A short name for logs and for ordering (`before`/`after` another step). */
  name: string;
  /** Limits the step to some methods; every method (every operation) when absent. */
  methods?: readonly McpMethod[];
  run(op: Operation, next: Next): Promise<unknown>;
}

export type Terminal = (op: Operation) => Promise<unknown>;

/** Methods whose step lists are remembered (the MCP methods and a few extension ones, far fewer in practice). */
const MAX_REMEMBERED_METHODS = 64;

export class Pipeline {
  private readonly steps: PipelineStep[];
  /** The steps of each method, in order; rebuilt when a step is added. */
  private readonly byMethod = new Map<string, readonly PipelineStep[]>();

  constructor(steps: PipelineStep[]) {
    this.steps = [...steps];
  }

  /** Adds a consumer step; by default before the terminal execution. */
  use(step: PipelineStep, position: { before?: string; after?: string } = {}): void {
    const anchor = position.before ?? position.after;
    if (!anchor) {
      this.steps.push(step);
      this.byMethod.clear();
      return;
    }
    const i = this.steps.findIndex((s) => s.name === anchor);
    if (i < 0) throw new Error(`Pipeline step "${anchor}" does not exist`);
    this.steps.splice(position.before ? i : i + 1, 0, step);
    this.byMethod.clear();
  }

  names(): string[] {
    return this.steps.map((s) => s.name);
  }

  run(op: Operation, terminal: Terminal): Promise<unknown> {
    let steps = this.byMethod.get(op.method);
    if (!steps) {
      steps = this.steps.filter((s) => !s.methods || s.methods.includes(op.method));
      if (this.byMethod.size < MAX_REMEMBERED_METHODS) this.byMethod.set(op.method, steps);
    }
    const chain = steps;
    // A step or terminal that throws instead of rejecting still rejects the promise of its caller.
    const dispatch = (i: number): Promise<unknown> => {
      try {
        const step = chain[i];
        const out = step ? step.run(op, () => dispatch(i + 1)) : terminal(op);
        // A plain value (a step written without async) still reaches the caller as a promise.
        return out instanceof Promise ? out : Promise.resolve(out);
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  }
}
