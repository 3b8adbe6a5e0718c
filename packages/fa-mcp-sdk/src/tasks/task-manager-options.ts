/**
 * What a task manager is made of and what it hands out: its settings and
 * hooks, what a new task is, the task begun on this instance, and the
 * caller a task keeps. Split from task-manager.ts so the manager holds only
 * the running of tasks.
 */
import type { CoreLogger } from '../core/core.js';
import type { Operation } from '../core/pipeline.js';
import type { INotificationBus } from '../state/notification-bus.js';
import type { ITaskCaller, ITaskRecord, ITaskStore } from './task-types.js';

export const CH_STATUS = 'task.status';
export const CH_CANCEL = 'task.cancel';
/** A stopping instance released the leases of tasks it handed over: take them over now. */
export const CH_RELEASED = 'task.released';

export interface TaskSettings {
  defaultTtlMs: number;
  minTtlMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  leaseMs: number;
  /** Largest answers one tasks/update may carry, in UTF-8 bytes (`mcp.tasks.maxUpdateBytes`; default 65,536). */
  maxUpdateBytes?: number;
  /** Least time between two statusMessage writes of one task (task-status-messages.ts; default 250 ms). */
  statusMessageIntervalMs?: number;
}

export interface TaskManagerOptions extends TaskSettings {
  store: ITaskStore;
  bus: INotificationBus;
  logger: CoreLogger;
  instanceId?: string;
  /** Runs the operation through the pipeline (the same a synchronous call takes). */
  run: (op: Operation) => Promise<unknown>;
  /**
   * The operation that runs a task again after its instance stopped, or
   * undefined where the task must not run twice (the tool does not declare
   * itself idempotent). Without it orphans are always marked failed.
   */
  rerun?: (record: ITaskRecord) => Promise<Operation | undefined>;
  /** Called once when this instance ends a task (completed, failed, cancelled), e.g. to queue a webhook; awaited, its errors logged. */
  onFinished?: (record: ITaskRecord) => Promise<void>;
  /**
   * Called on the instance that made it for every change of a task: its creation and each status
   * it takes (the audit trail's task records). Not awaited; its errors are its own.
   */
  onChange?: (record: ITaskRecord, change: 'created' | 'status') => void;
}


/** The caller of an operation as a task keeps it (no token, no claims). */
export function callerOf(op: Operation): ITaskCaller {
  const auth = op.ctx.auth;
  return { ...(auth ? { subject: auth.subject } : {}), scopes: auth?.scopes ?? [], groups: auth?.groups ?? [], era: op.ctx.era };
}

export type StatusListener = (record: ITaskRecord) => void;

/** What a new task is: who owns it, which call it runs, how long it is kept. */
export interface TaskStart {
  owner: string;
  toolName: string;
  arguments: Record<string, unknown>;
  ttlMs?: number;
  /**
   * The status of a task whose tool reported an error (`isError`): `failed` on
   * 2025-11-25, `completed` with the error result under the 2026-07-28 tasks
   * extension (where `failed` means a protocol error).
   */
  toolErrorStatus?: 'failed' | 'completed';
  /** Who started it (kept for a re-run on another instance). */
  caller?: ITaskCaller;
}

/** A task created on this instance whose work has not been handed over yet. */
export interface BegunTask {
  record: ITaskRecord;
  /** Aborts the work: on cancel (from any instance), shutdown. */
  controller: AbortController;
  /** Hands over the work; its outcome is recorded when it settles. */
  track(work: Promise<unknown>): void;
  /** Sets the task's stage (`statusMessage`): what the handler's `setTaskStatusMessage` calls. */
  statusMessage(message: string): void;
}

/**
 * The tool's own message of an `isError` result (the handler chose to show it
 * to the client): `structuredContent.error` when present, else the first text
 * block that is not the JSON mirror of `structuredContent`.
 */
export function toolErrorMessage(result: Record<string, unknown>): string {
  const structured = result.structuredContent as { error?: unknown } | undefined;
  if (structured && typeof structured.error === 'string' && structured.error) return structured.error;
  const mirror = structured === undefined ? undefined : JSON.stringify(structured);
  const blocks = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  const text = blocks.find((b) => b.type === 'text' && typeof b.text === 'string' && b.text && b.text !== mirror)?.text;
  return typeof text === 'string' ? text : 'The tool reported an error';
}
