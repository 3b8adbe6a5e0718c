/**
 * A 2026-07-28 `tools/call` that may become a task (SEP-2663). The call runs
 * through the same pipeline as every other call; the task is created at the point
 * the tool declares (`execution.taskStart`: before the handler by default, or
 * when the handler calls `startTask()`). Until then it is an ordinary request
 * (client input in `input_required` rounds, progress on the request); from
 * then on the request is answered with the task handle and the same run goes
 * on in the background: its signal answers to tasks/cancel, its client input
 * goes through the task record (tasks/get shows it, tasks/update answers it),
 * and its outcome is recorded on the task.
 */
import { assertClientCapability, type InputKind } from '../core/client-capabilities.js';
import { callerKey } from '../core/caller-key.js';
import type { Core } from '../core/core.js';
import type { Operation } from '../core/pipeline.js';
import type { ProgressReporter } from '../core/progress.js';
import type { RequestContext } from '../core/request-context.js';
import { TASK_STATE, TASKS_EXTENSION_ID } from '../core/steps/task-support.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import { callerOf, type TaskManager } from '../tasks/task-manager.js';
import { TaskLimitError, type ITaskRecord } from '../tasks/task-types.js';
import { toInputRequest } from './client-input-adapter.js';
import { toCreateTaskResult } from './task-wire-2026.js';

/** Whether the request's client declared the tasks extension (session-less: per request, in `_meta`). */
export function declaresTasksExtension(rc: RequestContext): boolean {
  const extensions = (rc.clientCapabilities as { extensions?: unknown }).extensions;
  return !!extensions && typeof extensions === 'object' && TASKS_EXTENSION_ID in extensions;
}

/**
 * Whether this call should run under a task launch: tasks offered, the client
 * declared the extension, and the tool supports tasks. Unknown tools take the
 * ordinary path (the pipeline answers them).
 */
export async function shouldLaunchTask(core: Core, rc: RequestContext, name: unknown): Promise<boolean> {
  if (!declaresTasksExtension(rc) || typeof name !== 'string') return false;
  const tool = await core.registry.findTool(name, rc);
  const support = tool?.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

export interface TaskLaunchOptions {
  core: Core;
  tasks: TaskManager;
  rc: RequestContext;
  params: JsonObject;
  /** The request's own signal (client cancel or disconnect): it stops the run only until the task exists. */
  requestSignal: AbortSignal;
  reporter: ProgressReporter;
}

/**
 * Runs `tools/call` under a launch. `client` is the request's own channel
 * (input_required rounds). Resolves with the tool result when the run ended
 * before a task was created, else with the CreateTaskResult.
 */
export async function runWithTaskLaunch(opts: TaskLaunchOptions, client: IClientChannel): Promise<unknown> {
  const { core, tasks, rc, params } = opts;
  const controller = new AbortController();
  const onRequestAbort = () => controller.abort(opts.requestSignal.reason);
  if (opts.requestSignal.aborted) onRequestAbort();
  else opts.requestSignal.addEventListener('abort', onRequestAbort, { once: true });

  let task: { record: ITaskRecord; track: (work: Promise<unknown>) => void; statusMessage: (message: string) => void } | undefined;
  let starting: Promise<void> | undefined;
  let announce: (record: ITaskRecord) => void = () => undefined;
  const started = new Promise<ITaskRecord>((resolve) => (announce = resolve));

  const op: Operation = {
    method: 'tools/call',
    target: { kind: 'tool', name: typeof params.name === 'string' ? params.name : '' },
    caller: rc.auth,
    ctx: rc,
    params,
    signal: controller.signal,
    client: switchingChannel(client, () => task?.record.taskId, tasks, rc, controller.signal),
    // Progress travels on the request; once it is answered there is nowhere to send it.
    sendProgress: (p, t, m) => {
      if (!task) opts.reporter.report(p, t, m);
    },
    state: new Map<string, unknown>([
      [TASK_STATE.task, true],
      [TASK_STATE.offered, true],
    ]),
  };

  const startTask = (): Promise<void> => {
    starting ??= (async () => {
      try {
        const begun = await tasks.begin({
          owner: callerKey(rc, 'subject'),
          toolName: String(params.name ?? ''),
          arguments: (params.arguments as Record<string, unknown> | undefined) ?? {},
          toolErrorStatus: 'completed',
          caller: callerOf(op),
        });
        // From now on the request no longer stops the run; tasks/cancel (any instance) does.
        opts.requestSignal.removeEventListener('abort', onRequestAbort);
        begun.controller.signal.addEventListener('abort', () => controller.abort(begun.controller.signal.reason), { once: true });
        task = { record: begun.record, track: begun.track, statusMessage: begun.statusMessage };
        announce(begun.record);
      } catch (err) {
        starting = undefined;
        throw err;
      }
    })();
    return starting;
  };
  op.startTask = startTask;
  // Before the task exists (taskStart: 'handler') there is no record to show a stage in: nothing to do.
  op.setTaskStatusMessage = (message) => task?.statusMessage(message);

  const terminal = async (o: Operation) => {
    if ((o.tool?.execution?.taskStart ?? 'call') === 'call') {
      try {
        await startTask();
      } catch (err) {
        // Past the retained-task cap the call is refused as a tool error the model can read.
        if (err instanceof TaskLimitError) return { content: [{ type: 'text', text: err.message }], isError: true };
        throw err;
      }
    }
    return core.executeTool(o);
  };

  const run = core.pipeline.run(op, terminal);
  try {
    const first = await Promise.race([run.then((value) => ({ ended: true as const, value })), started.then((record) => ({ ended: false as const, record }))]);
    return first.ended ? first.value : toCreateTaskResult(first.record);
  } finally {
    // A task that exists records the run's outcome, whichever way the race went.
    if (task) task.track(run);
    else opts.requestSignal.removeEventListener('abort', onRequestAbort);
  }
}

/**
 * The handler's client: the request's channel until the task exists, then
 * the task record (tasks/get shows the request, tasks/update answers it).
 */
function switchingChannel(request: IClientChannel, taskId: () => string | undefined, tasks: TaskManager, rc: RequestContext, signal: AbortSignal): IClientChannel {
  const viaTask = (kind: InputKind, params: JsonObject, id: string): Promise<JsonObject> => {
    try {
      assertClientCapability(kind, params, rc.clientCapabilities);
    } catch (err) {
      return Promise.reject(err);
    }
    const wire = toInputRequest({ kind, params }) as unknown as { method: string; params?: Record<string, unknown> };
    return tasks.inputs.ask(id, wire, signal) as Promise<JsonObject>;
  };
  return {
    get resumed() {
      return request.resumed;
    },
    log: (level, data, logger) => (taskId() ? Promise.resolve() : request.log(level, data, logger)),
    notify: (method, params) => (taskId() ? Promise.resolve() : request.notify(method, params)),
    elicit: (params, options) => {
      const id = taskId();
      return id ? viaTask('elicitation', params, id) : request.elicit(params, options);
    },
    sample: (params, options) => {
      const id = taskId();
      return id ? viaTask('sampling', params, id) : request.sample(params, options);
    },
    listRoots: (options) => {
      const id = taskId();
      return id ? viaTask('roots', {}, id) : request.listRoots(options);
    },
  };
}
