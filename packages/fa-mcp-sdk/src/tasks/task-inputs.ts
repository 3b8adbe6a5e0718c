/**
 * Client input for tasks of the 2026-07-28 tasks extension. A handler running
 * as a task asks for input; the ask is written to the task record under a
 * fresh key (status `input_required`), and the handler waits. The client reads
 * the request with tasks/get and answers with tasks/update, on any instance:
 * the answer is moved from `inputRequests` to `inputResponses` in one
 * compare-and-set write, the instance running the task hears of it on the
 * notification bus (or by polling, if a notification is lost), takes the
 * answer and goes on. The record is the only shared state, so nothing depends
 * on which instance the client reaches.
 */
import { ERROR_BRAND } from '../core/error-brand.js';
import { ConflictError, ValidationError } from '../core/errors.js';
import type { INotificationBus } from '../state/notification-bus.js';
import { isTerminalTaskStatus, type ITaskRecord, type ITaskStore, type TTaskPatch } from './task-types.js';

export const CH_INPUT = 'task.input';

/** One input request as tasks/get shows it: `{ method, params }`. */
export interface ITaskInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

export interface TaskInputsOptions {
  store: ITaskStore;
  bus: INotificationBus;
  /** Publishes a status change to every instance (TaskManager.setStatus's event). */
  published: (record: ITaskRecord) => Promise<void>;
  /** How often a waiting handler re-reads the record when no event arrives. */
  pollMs: number;
  /** Attempts of one read-modify-write under contention before giving up. */
  maxAttempts?: number;
  /** Largest answers one update may carry, serialized as JSON, in UTF-8 bytes (`mcp.tasks.maxUpdateBytes`; default 65,536). */
  maxAnswerBytes?: number;
}

/** `mcp.tasks.maxUpdateBytes` by default: 64 KiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 65_536;

/** Input could not be asked or taken (the task ended, or too many writers at once): a conflict, -32007 (HTTP 409). */
export class TaskInputError extends ConflictError {
  static override readonly [ERROR_BRAND]: string = 'TaskInputError';
}

export interface TaskAnswerOutcome {
  /** Keys that matched an outstanding request and were taken. */
  accepted: string[];
  /** Keys that matched nothing outstanding (unknown or answered already); ignored. */
  ignored: string[];
}

type Change = (record: ITaskRecord) => TTaskPatch | undefined;

export class TaskInputs {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly stop: () => void;

  constructor(private readonly opts: TaskInputsOptions) {
    this.stop = opts.bus.subscribe(CH_INPUT, (p) => this.wake(String(p.taskId)));
  }

  /**
   * Asks the client through the task record and waits for the answer. Rejects
   * when `signal` aborts (cancel, timeout, shutdown) or the task ends first.
   */
  async ask(taskId: string, request: ITaskInputRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const key = crypto.randomUUID();
    const asked = await this.modify(taskId, (r) => ({
      status: 'input_required',
      statusMessage: 'Waiting for input from the client',
      inputRequests: { ...(r.inputRequests ?? {}), [key]: request },
    }));
    if (!asked) throw new TaskInputError(`Task ${taskId} ended before it could ask for input`);
    await this.opts.published(asked);
    const answer = await this.waitFor(taskId, key, signal);
    // Consumed: the answer leaves the record, the key is never used again.
    await this.modify(taskId, (r) => {
      const { [key]: _taken, ...rest } = r.inputResponses ?? {};
      return { inputResponses: rest };
    });
    return answer;
  }

  /**
   * Throws ValidationError (-32602) when `responses` serialized as JSON is larger than
   * `maxAnswerBytes` in UTF-8, before anything else looks at them; its data names the limit.
   */
  assertAnswerSize(responses: unknown): void {
    const limit = this.opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    if (Buffer.byteLength(JSON.stringify(responses) ?? '', 'utf8') > limit) {
      throw new ValidationError(`The answers of one tasks/update may take at most ${limit} bytes serialized (UTF-8)`, {
        field: 'inputResponses',
        reason: 'too large',
        limitBytes: limit,
      });
    }
  }

  /**
   * Delivers answers (tasks/update). Keys that match an outstanding request
   * are taken; others are ignored. The task goes back to `working` once no
   * request is outstanding. Answers larger than `maxAnswerBytes` are refused (assertAnswerSize).
   */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<TaskAnswerOutcome> {
    this.assertAnswerSize(responses);
    let outcome: TaskAnswerOutcome = { accepted: [], ignored: Object.keys(responses) };
    const updated = await this.modify(taskId, (r) => {
      const pending = { ...(r.inputRequests ?? {}) };
      const taken: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(responses)) {
        if (!(key in pending)) continue;
        taken[key] = value;
        delete pending[key];
      }
      outcome = { accepted: Object.keys(taken), ignored: Object.keys(responses).filter((k) => !(k in taken)) };
      if (outcome.accepted.length === 0) return undefined;
      const stillWaiting = Object.keys(pending).length > 0;
      return {
        inputRequests: pending,
        inputResponses: { ...(r.inputResponses ?? {}), ...taken },
        status: stillWaiting ? 'input_required' : 'working',
        statusMessage: stillWaiting ? 'Waiting for input from the client' : undefined,
      };
    });
    if (updated && outcome.accepted.length > 0) {
      await this.opts.bus.publish(CH_INPUT, { taskId });
      this.wake(taskId);
      await this.opts.published(updated);
    }
    return outcome;
  }

  close(): void {
    this.stop();
    for (const set of this.waiters.values()) for (const w of set) w();
    this.waiters.clear();
  }

  /** Read-modify-write with compare-and-set; undefined when the task is unknown or terminal, or nothing changes. */
  private async modify(taskId: string, change: Change): Promise<ITaskRecord | undefined> {
    const attempts = this.opts.maxAttempts ?? 20;
    for (let i = 0; i < attempts; i++) {
      const record = await this.opts.store.get(taskId);
      if (!record || isTerminalTaskStatus(record.status)) return undefined;
      const patch = change(record);
      if (!patch) return undefined;
      const written = await this.opts.store.updateIfVersion(taskId, record.version, patch);
      if (written) return written;
    }
    throw new TaskInputError(`Task ${taskId} is being written by too many writers at once; try again`);
  }

  private async waitFor(taskId: string, key: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    for (;;) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new TaskInputError('The task was stopped while waiting for input');
      const record = await this.opts.store.get(taskId);
      if (!record || isTerminalTaskStatus(record.status)) throw new TaskInputError(`Task ${taskId} ended while waiting for input`);
      const answer = record.inputResponses?.[key];
      if (answer !== undefined) return answer as Record<string, unknown>;
      await this.sleep(taskId, signal);
    }
  }

  /** Until an input event for the task, the poll interval, or the signal, whichever comes first. */
  private sleep(taskId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(taskId);
      if (!set) this.waiters.set(taskId, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.waiters.delete(taskId);
        resolve();
      };
      const timer = setTimeout(done, this.opts.pollMs);
      timer.unref();
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  private wake(taskId: string): void {
    for (const w of [...(this.waiters.get(taskId) ?? [])]) w();
  }
}
