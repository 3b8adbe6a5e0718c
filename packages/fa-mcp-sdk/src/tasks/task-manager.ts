/**
 * Runs tool calls as tasks: creates the record, runs the same pipeline a
 * synchronous call runs in the background, and keeps the record honest
 * (status on every change, a lease renewed while the task runs, cancellation
 * that reaches the instance running it through the notification bus).
 */
import { ValidationError } from '../core/errors.js';
import { isExposedMcpError, isToolExecutionError } from '../core/error-guards.js';
import { toWireError } from '../core/error-mapping.js';
import type { Operation } from '../core/pipeline.js';
import { TaskInputs } from './task-inputs.js';
import { TaskStatusMessages } from './task-status-messages.js';
import { claimPatch, mayRunAgain, orphanFailurePatch, plannedStopFailurePatch, releasedAtPlannedStop, releasePatch } from './task-handover.js';
import {
  CH_CANCEL,
  CH_RELEASED,
  CH_STATUS,
  callerOf,
  toolErrorMessage,
  type BegunTask,
  type StatusListener,
  type TaskManagerOptions,
  type TaskStart,
} from './task-manager-options.js';
import { isTerminalTaskStatus, type ITaskRecord, type ITaskStore, type TaskPage, type TTaskPatch } from './task-types.js';

export { MAX_TASK_ATTEMPTS } from './task-handover.js';
export { CH_CANCEL, CH_RELEASED, CH_STATUS, callerOf, type BegunTask, type TaskManagerOptions, type TaskSettings, type TaskStart } from './task-manager-options.js';

export class TaskManager {
  readonly instanceId: string;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Client input of running tasks (2026-07-28 extension): asked in the record, answered by tasks/update on any instance. */
  readonly inputs: TaskInputs;
  private readonly statusListeners = new Set<StatusListener>();
  private readonly unsubscribe: Array<() => void> = [];
  private leaseTimer?: NodeJS.Timeout;
  /** The lease renewal being written (a release waits for it, so no renewal lands after it). */
  private renewal: Promise<void> | undefined;
  /** Draining: this instance takes over no task of another (it would only release it again). */
  private stopping = false;

  constructor(private readonly opts: TaskManagerOptions) {
    this.instanceId = opts.instanceId ?? crypto.randomUUID();
    this.unsubscribe.push(
      opts.bus.subscribe(CH_CANCEL, (p) => {
        const id = typeof p.taskId === 'string' ? p.taskId : '';
        this.running.get(id)?.controller.abort(new Error('Task cancelled'));
      }),
      opts.bus.subscribe(CH_STATUS, (p) => void this.emitStatus(String(p.taskId))),
      opts.bus.subscribe(CH_RELEASED, () => {
        this.recoverOrphans().catch((err: unknown) => this.opts.logger.warn({ err }, 'taking over released tasks failed'));
      }),
    );
    this.inputs = new TaskInputs({
      store: opts.store,
      bus: opts.bus,
      pollMs: Math.min(1000, opts.pollIntervalMs),
      ...(opts.maxUpdateBytes !== undefined ? { maxAnswerBytes: opts.maxUpdateBytes } : {}),
      published: (record) => this.announce(record),
    });
    this.leaseTimer = setInterval(() => this.renewLeases(), Math.max(250, Math.floor(opts.leaseMs / 3)));
    this.leaseTimer.unref();
  }

  get store(): ITaskStore {
    return this.opts.store;
  }

  /** Tasks running on this instance right now. */
  get runningCount(): number {
    return this.running.size;
  }

  /** Called with the new record on every status change, on whatever instance it happened. */
  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  clampTtl(requested: number | undefined): number {
    const ttl = requested ?? this.opts.defaultTtlMs;
    return Math.min(this.opts.maxTtlMs, Math.max(this.opts.minTtlMs, ttl));
  }

  /** Creates the task and starts it in the background; resolves with the created record. */
  async start(op: Operation, owner: string, ttlMs?: number, beforeRun?: (record: ITaskRecord) => void): Promise<ITaskRecord> {
    const begun = await this.begin({
      owner,
      toolName: String(op.params.name ?? ''),
      arguments: (op.params.arguments as Record<string, unknown> | undefined) ?? {},
      ...(ttlMs !== undefined ? { ttlMs } : {}),
      caller: callerOf(op),
    });
    beforeRun?.(begun.record);
    begun.track(this.opts.run({ ...op, signal: begun.controller.signal, state: new Map(op.state), setTaskStatusMessage: begun.statusMessage }));
    return begun.record;
  }

  /**
   * Creates the task record (durably: a tasks/get anywhere finds it once this
   * resolves) and registers it as running here; the caller hands over the work
   * with `track`. Throws TaskLimitError past the retained-task cap.
   */
  async begin(start: TaskStart): Promise<BegunTask> {
    const controller = new AbortController();
    const record = await this.opts.store.create({
      taskId: crypto.randomUUID(),
      owner: start.owner,
      toolName: start.toolName,
      arguments: start.arguments,
      ttlMs: this.clampTtl(start.ttlMs),
      pollIntervalMs: this.opts.pollIntervalMs,
      leaseOwner: this.instanceId,
      leaseMs: this.opts.leaseMs,
      ...(start.caller ? { caller: start.caller } : {}),
    });
    this.changed(record, 'created');
    // Boxed: resolving with the promise itself would adopt its outcome instead of handing it over.
    let settle: (box: { work: Promise<unknown> }) => void = () => undefined;
    const handedOver = new Promise<{ work: Promise<unknown> }>((resolve) => (settle = resolve));
    const stage = this.stageOf(record.taskId);
    const done = handedOver
      .then(({ work }) => this.record(record.taskId, work, controller, start.toolErrorStatus ?? 'failed', stage))
      .finally(() => this.running.delete(record.taskId));
    this.running.set(record.taskId, { controller, done });
    return { record, controller, track: (work) => settle({ work }), statusMessage: (message) => stage.report(message) };
  }

  /** The task, if it exists and belongs to `owner`; anything else is one error (no existence oracle). */
  async get(taskId: string, owner: string): Promise<ITaskRecord> {
    const record = typeof taskId === 'string' ? await this.opts.store.get(taskId) : undefined;
    if (!record || record.owner !== owner || record.expiresAt <= Date.now()) {
      throw new ValidationError(`Unknown task: ${String(taskId)}`, { field: 'taskId', reason: 'unknown or expired task' });
    }
    return record;
  }

  async list(owner: string, cursor: string | undefined, limit = 50): Promise<TaskPage> {
    return this.opts.store.list(owner, { limit, ...(cursor ? { cursor } : {}) });
  }

  /** Waits until the task is terminal (status events, with polling as the fallback). */
  async waitForTerminal(taskId: string, owner: string, signal?: AbortSignal): Promise<ITaskRecord> {
    let record = await this.get(taskId, owner);
    while (!isTerminalTaskStatus(record.status)) {
      await new Promise<void>((resolve) => {
        const stop = this.onStatus((r) => r.taskId === taskId && finish());
        const timer = setTimeout(() => finish(), Math.min(1000, record.pollIntervalMs));
        const onAbort = () => finish();
        signal?.addEventListener('abort', onAbort, { once: true });
        function finish() {
          stop();
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }
      });
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      record = await this.get(taskId, owner);
    }
    return record;
  }

  /** Cancels a task that has not finished (cooperative: the handler's signal aborts). */
  async cancel(taskId: string, owner: string): Promise<ITaskRecord> {
    const record = await this.get(taskId, owner);
    if (isTerminalTaskStatus(record.status)) return record;
    const updated = await this.setStatus(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.running.get(taskId)?.controller.abort(new Error('Task cancelled'));
    await this.opts.bus.publish(CH_CANCEL, { taskId });
    return updated ?? (await this.get(taskId, owner));
  }

  /**
   * This instance is stopping: from now on it takes over no task of another
   * instance (it would only hand it over again). The server calls it as its stop begins.
   */
  beginStop(): void {
    this.stopping = true;
  }

  /**
   * Takes over tasks whose instance is gone: a lease released at a planned stop
   * (at once) or one that expired (a crash). Each is re-run here when its tool may
   * run twice and the crash allowance is not used up, else marked failed.
   * Returns how many it took (re-run or failed).
   */
  async recoverOrphans(now = Date.now()): Promise<number> {
    if (this.stopping) return 0;
    const orphans = await this.opts.store.expiredLeases(now, 100);
    let n = 0;
    for (const t of orphans) {
      if (this.running.has(t.taskId)) continue;
      if (await this.rerun(t, now)) {
        n++;
        continue;
      }
      // Only as it was read: another instance may have re-run it, or its owner renewed the lease, meanwhile.
      const updated = await this.opts.store.updateIfVersion(t.taskId, t.version, orphanFailurePatch(t));
      if (updated) {
        this.opts.logger.warn({ taskId: t.taskId, tool: t.toolName, attempts: t.attempts, plannedStop: releasedAtPlannedStop(t) }, 'marked a task of a stopped instance as failed (not run again)');
        await this.announce(updated);
        await this.finished(updated);
        n++;
      }
    }
    return n;
  }

  /**
   * Runs an orphan again here when its tool may run twice: claims it with a
   * compare-and-set (one instance wins), then runs it as its caller. A task
   * handed over at a planned stop is always run again; one whose instance
   * crashed only while fewer than MAX_TASK_ATTEMPTS runs were lost that way.
   */
  private async rerun(t: ITaskRecord, now: number): Promise<boolean> {
    if (!this.opts.rerun || !mayRunAgain(t)) return false;
    const op = await this.opts.rerun(t).catch(() => undefined);
    if (!op) return false;
    const claimed = await this.opts.store.updateIfVersion(t.taskId, t.version, claimPatch(t, this.instanceId, now + this.opts.leaseMs));
    if (!claimed) return false; // another instance took it, or it ended
    await this.announce(claimed);
    const controller = new AbortController();
    const toolErrorStatus = t.caller?.era === '2026' ? 'completed' : 'failed';
    const stage = this.stageOf(t.taskId);
    const run = this.opts.run({ ...op, signal: controller.signal, setTaskStatusMessage: (message) => stage.report(message) });
    const done = this.record(t.taskId, run, controller, toolErrorStatus, stage).finally(() => this.running.delete(t.taskId));
    this.running.set(t.taskId, { controller, done });
    const fields = { taskId: t.taskId, tool: t.toolName, attempt: claimed.attempts, handovers: claimed.handovers ?? 0 };
    if (releasedAtPlannedStop(t)) this.opts.logger.info({ ...fields, from: t.release?.instance }, 're-running a task handed over at a planned stop (idempotent tool)');
    else this.opts.logger.warn(fields, 're-running a task whose instance stopped without releasing it (idempotent tool)');
    return true;
  }

  /**
   * Graceful stop: lets running tasks finish within `graceMs`, then stops the rest here.
   * With `release` (a store other instances share) a task of an idempotent tool is handed
   * over: its lease expires at once with the reason (`release`: a planned stop) and every
   * instance is told (CH_RELEASED), so one of them runs it again now, and that re-run does not
   * count against MAX_TASK_ATTEMPTS. A task whose tool may not run twice was interrupted
   * mid-way: it is marked failed here, saying so. Without `release` (nobody else can take
   * them) every task left is marked failed. `abandoned`: the tasks failed by the stop.
   */
  async drain(graceMs: number, opts: { release?: boolean } = {}): Promise<{ finished: number; handedOver: number; abandoned: number }> {
    this.stopping = true;
    const before = this.running.size;
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    const left = [...this.running.keys()];
    // A handler that ignores its abort keeps its entry: its lease must not be renewed past the release.
    if (opts.release && this.leaseTimer) clearInterval(this.leaseTimer);
    await this.renewal;
    let handedOver = 0;
    let abandoned = 0;
    for (const id of left) {
      this.running.get(id)?.controller.abort(new Error('Server shutting down'));
      const outcome = await this.stopTask(id, opts.release === true).catch((err: unknown) => {
        this.opts.logger.warn({ err, taskId: id }, 'could not record a task stopped by the shutdown');
        return 'abandoned' as const;
      });
      if (outcome === 'handed-over') handedOver++;
      else if (outcome === 'abandoned') abandoned++;
    }
    if (handedOver > 0) {
      await this.opts.bus.publish(CH_RELEASED, { count: handedOver }).catch((err: unknown) => this.opts.logger.warn({ err }, 'could not announce released tasks'));
    }
    if (left.length > 0) this.opts.logger.info({ handedOver, failed: abandoned }, 'stopped the tasks still running: leases of idempotent ones released, the rest marked failed');
    return { finished: before - handedOver - abandoned, handedOver, abandoned };
  }

  /** What the stop does to one task still running here: hands it over, fails it, or finds it finished meanwhile. */
  private async stopTask(taskId: string, release: boolean): Promise<'handed-over' | 'abandoned' | 'finished'> {
    if (!release) {
      const failed = await this.setStatus(taskId, { status: 'failed', statusMessage: 'The server shut down before this task finished; call the tool again.' });
      return failed ? 'abandoned' : 'finished';
    }
    const record = await this.opts.store.get(taskId);
    if (!record || isTerminalTaskStatus(record.status)) return 'finished';
    const rerunnable = this.opts.rerun ? (await this.opts.rerun(record).catch(() => undefined)) !== undefined : false;
    if (rerunnable) {
      const released = await this.opts.store.update(taskId, releasePatch(this.instanceId, Date.now()));
      return released ? 'handed-over' : 'finished';
    }
    const failed = await this.setStatus(taskId, plannedStopFailurePatch(this.instanceId));
    return failed ? 'abandoned' : 'finished';
  }

  async close(): Promise<void> {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.inputs.close();
    this.unsubscribe.forEach((u) => u());
    this.statusListeners.clear();
  }

  /** Sets status fields; publishes the change to every instance. */
  async setStatus(taskId: string, patch: TTaskPatch): Promise<ITaskRecord | undefined> {
    const updated = await this.opts.store.update(taskId, patch);
    if (updated) await this.announce(updated);
    if (updated && patch.status && isTerminalTaskStatus(updated.status)) await this.finished(updated);
    return updated;
  }

  private async finished(record: ITaskRecord): Promise<void> {
    await this.opts.onFinished?.(record).catch((err: unknown) => this.opts.logger.warn({ err, taskId: record.taskId }, 'task end hook failed'));
  }

  /** The stage reports of a task running here: written to its record (and announced to every instance), coalesced. */
  private stageOf(taskId: string): TaskStatusMessages {
    return new TaskStatusMessages({
      write: (statusMessage) => this.setStatus(taskId, { statusMessage }),
      ...(this.opts.statusMessageIntervalMs !== undefined ? { minIntervalMs: this.opts.statusMessageIntervalMs } : {}),
      onError: (err) => this.opts.logger.warn({ err, taskId }, 'could not record the stage of a task'),
    });
  }

  /** Records how the work of a task ended, unless it was cancelled or shut down (recorded already). */
  private async record(taskId: string, work: Promise<unknown>, controller: AbortController, toolErrorStatus: 'failed' | 'completed', stage: TaskStatusMessages): Promise<void> {
    try {
      const result = (await work.finally(() => stage.close())) as Record<string, unknown>;
      if (controller.signal.aborted) return;
      const isError = result.isError === true;
      const status = isError ? toolErrorStatus : 'completed';
      await this.setStatus(taskId, { status, result, inputRequests: undefined, ...(isError ? { statusMessage: toolErrorMessage(result) } : {}) });
    } catch (err) {
      if (controller.signal.aborted) return; // cancelled or shut down: already recorded
      const message = isExposedMcpError(err) || isToolExecutionError(err) ? err.message : 'The task failed';
      const wire = toWireError(err, taskId);
      await this.setStatus(taskId, {
        status: 'failed',
        statusMessage: message,
        inputRequests: undefined,
        error: { code: wire.code, message: wire.message, ...(wire.data ? { data: wire.data } : {}) },
      }).catch((e: unknown) => this.opts.logger.error({ err: e, taskId }, 'could not record a failed task'));
      if (!isExposedMcpError(err)) this.opts.logger.error({ err, taskId }, 'task failed unexpectedly');
    }
  }

  private renewLeases(): void {
    if (this.renewal) return; // the last round is still writing
    this.renewal = (async () => {
      const until = Date.now() + this.opts.leaseMs;
      for (const taskId of this.running.keys()) {
        await this.opts.store.update(taskId, { leaseOwner: this.instanceId, leaseExpiresAt: until }).catch(() => undefined);
      }
    })().finally(() => (this.renewal = undefined));
  }

  /** A change this instance made: told to its own hook, and to every instance's status listeners over the bus. */
  private async announce(record: ITaskRecord): Promise<void> {
    this.changed(record, 'status');
    await this.opts.bus.publish(CH_STATUS, { taskId: record.taskId, status: record.status });
  }

  private changed(record: ITaskRecord, change: 'created' | 'status'): void {
    try {
      this.opts.onChange?.(record, change);
    } catch {
      // the hook's failure is its own
    }
  }

  private async emitStatus(taskId: string): Promise<void> {
    if (this.statusListeners.size === 0) return;
    const record = await this.opts.store.get(taskId).catch(() => undefined);
    if (!record) return;
    for (const l of [...this.statusListeners]) {
      try {
        l(record);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
