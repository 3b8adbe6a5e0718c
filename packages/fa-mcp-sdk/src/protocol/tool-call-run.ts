/**
 * The one `tools/call` runner: what the SDK path's handler (server-factory.ts)
 * and both fast paths (modern-fast-call.ts, session-fast-call.ts) run for a
 * call — progress reporting, the era's client channel, the 2026-07-28 task
 * launch, `core.pipeline.run(op, core.executeTool)`, error mapping. A rule
 * added here holds on every path; the paths differ only in how the call
 * reached them and how its answer is written.
 *
 * The fast paths pass a LazyAbort (the AbortSignal is made only if someone
 * reads it); the SDK path passes the request's signal. Either way the
 * operation is one object literal (PER_CALL_OBJECTS in client-channel.ts).
 */
import type { Core } from '../core/core.js';
import { LazyAbort, withLazySignal } from '../core/lazy-abort.js';
import type { Operation } from '../core/pipeline.js';
import { createProgressReporter, noopProgress, type ProgressReporter } from '../core/progress.js';
import type { RequestContext } from '../core/request-context.js';
import type { IClientChannel, JsonObject } from '../core/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { RequestPort } from './client-channel.js';
import { runWithClientInput, type ClientInputRun } from './client-input-adapter.js';
import { toProtocolError } from './errors.js';
import { runWithTaskLaunch, shouldLaunchTask } from './task-launch-2026.js';

export type CallOutcome = { result: unknown } | { error: { code?: unknown; message?: unknown; data?: unknown } };

export interface ToolCallRun {
  rc: RequestContext;
  /** The call's params (`name`, `arguments`, `_meta`). */
  params: JsonObject;
  /** The tool name as the request gives it ('' when it gives none: the resolve step refuses it). */
  name: string;
  progressToken: string | number | undefined;
  /** Where progress notifications go (the request's port). */
  port: Pick<RequestPort, 'notify'>;
  /** Aborts the call: the request's signal (SDK path) or a LazyAbort (fast paths). */
  abort: LazyAbort | AbortSignal;
  /** The era's side of client input (legacySide, modernSide or the SDK's context, and the shared settings). */
  clientInput: Omit<ClientInputRun, 'rc' | 'binding' | 'validator'>;
  state: Operation['state'];
  /** 2026-07-28 with the tasks extension offered: the call may become a task (task-launch-2026.ts). */
  tasks: TaskManager | undefined;
}

export async function runToolCall(core: Core, run: ToolCallRun): Promise<CallOutcome> {
  const { rc } = run;
  const token = run.progressToken;
  const reporter =
    token === undefined
      ? noopProgress
      : createProgressReporter((u) => run.port.notify({ method: 'notifications/progress', params: { progressToken: token, ...u } as JsonObject }), core.limits.progressThrottleMs);
  const binding = { method: 'tools/call', name: run.name, arguments: run.params.arguments };
  try {
    // No await where no task can start (the fast paths): a call costs no extra turn of the microtask queue.
    const launch = run.tasks === undefined ? false : await shouldLaunchTask(core, rc, run.params.name);
    const input = run.clientInput;
    // Field by field, not `{ ...input, rc, … }`: SPREAD_FIRST in client-channel.ts.
    const clientRun: ClientInputRun = { ctx: input.ctx, legacySide: input.legacySide, modernSide: input.modernSide, modern: input.modern, rc, binding, validator: core.registry.validator };
    const result = await runWithClientInput(clientRun, (client) =>
      launch && run.tasks ? launchTask(core, run, run.tasks, reporter, client) : core.pipeline.run(operationOf(run, client, reporter), core.executeTool),
    );
    await reporter.flush();
    return { result };
  } catch (err) {
    await reporter.flush();
    return { error: toProtocolError(err, rc.requestId, rc.logger ?? core.logger) };
  }
}

function operationOf(run: ToolCallRun, client: IClientChannel, reporter: ProgressReporter): Operation {
  const { abort } = run;
  const sendProgress = (p: number, t?: number, m?: string) => reporter.report(p, t, m);
  const target = { kind: 'tool' as const, name: run.name };
  if (abort instanceof LazyAbort) {
    return withLazySignal({ method: 'tools/call', target, caller: run.rc.auth, ctx: run.rc, params: run.params, client, sendProgress, state: run.state }, abort);
  }
  return { method: 'tools/call', target, caller: run.rc.auth, ctx: run.rc, params: run.params, client, sendProgress, state: run.state, signal: abort };
}

function launchTask(core: Core, run: ToolCallRun, tasks: TaskManager, reporter: ProgressReporter, client: IClientChannel): Promise<unknown> {
  const requestSignal = run.abort instanceof LazyAbort ? run.abort.signal : run.abort;
  return runWithTaskLaunch({ core, tasks, rc: run.rc, params: run.params, requestSignal, reporter }, client);
}
