/**
 * Tasks: long-running tool calls that answer at once with a handle and finish
 * in the background. The record and store contract shared by every store.
 */
export type TTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<TTaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminalTaskStatus(status: TTaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/**
 * Who started a task, kept so another instance can re-run it as the same
 * caller (tools with `annotations.idempotentHint: true`). No token, no claims:
 * the subject, scopes and groups the authorization step checks, and the era.
 */
export interface ITaskCaller {
  subject?: string;
  scopes: string[];
  groups: string[];
  era: '2025' | '2026';
}

export interface ITaskRecord {
  /** Unguessable id (UUID v4, 122 random bits). */
  taskId: string;
  /** Who may see the task: the caller key (auth subject, else client address). */
  owner: string;
  toolName: string;
  arguments: Record<string, unknown>;
  status: TTaskStatus;
  statusMessage?: string;
  /** The tool result, once completed (the same a synchronous call returns). */
  result?: Record<string, unknown>;
  /** A JSON-RPC error for a task that failed on a protocol error (validation, timeout). */
  error?: { code: number; message: string; data?: unknown };
  /** Outstanding requests for client input, by key (2026-07-28 extension). */
  inputRequests?: Record<string, unknown>;
  /** Answers the client sent (tasks/update) that the running handler has not consumed yet, by key. */
  inputResponses?: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  ttlMs: number;
  /** createdAt + ttlMs: the record may be deleted after this. */
  expiresAt: number;
  pollIntervalMs: number;
  /** The instance running the task and until when its lease holds. */
  leaseOwner?: string;
  leaseExpiresAt?: number;
  /** Incremented on every write (optimistic concurrency). */
  version: number;
  /** The caller, for a re-run on another instance. */
  caller?: ITaskCaller;
  /** Runs started: 1, then one more on every re-run of an idempotent tool whose instance stopped. */
  attempts: number;
  /**
   * Re-runs that followed a planned stop (a handover): they do not count against
   * `MAX_TASK_ATTEMPTS`, only runs lost to a crash do. Absent: 0.
   */
  handovers?: number;
  /** Set when the instance running the task released its lease at a planned stop; cleared when another instance takes it. */
  release?: ITaskRelease;
}

/**
 * Why a lease ended before its expiry. Only a planned stop (SIGTERM, `stop()`)
 * releases a lease; a lease that simply ran out means the instance crashed.
 */
export interface ITaskRelease {
  reason: 'planned_stop';
  /** The instance that released it (its `TaskManager.instanceId`). */
  instance: string;
  /** When (ms since the epoch). */
  at: number;
}

export interface ITaskCreateInput {
  taskId: string;
  owner: string;
  toolName: string;
  arguments: Record<string, unknown>;
  ttlMs: number;
  pollIntervalMs: number;
  leaseOwner: string;
  leaseMs: number;
  caller?: ITaskCaller;
  now?: number;
}

export type TTaskPatch = Partial<
  Pick<
    ITaskRecord,
    'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests' | 'inputResponses' | 'leaseOwner' | 'leaseExpiresAt' | 'attempts' | 'handovers' | 'release'
  >
>;

export interface ITaskStoreOptions {
  /** A new task past this many retained tasks is refused. */
  maxTasks: number;
}

export interface TaskPage {
  tasks: ITaskRecord[];
  nextCursor?: string;
}

export { TaskLimitError } from './task-limit-error.js';

/**
 * Where tasks live. Every method is asynchronous so a shared store
 * (PostgreSQL) and the in-memory one are interchangeable.
 */
export interface ITaskStore {
  /** Creates a task; throws TaskLimitError past `maxTasks` retained tasks. */
  create(input: ITaskCreateInput): Promise<ITaskRecord>;
  get(taskId: string): Promise<ITaskRecord | undefined>;
  /**
   * Applies a patch unless the task is already terminal (a finished task stays
   * as it ended). Returns the new record, or undefined when unknown or terminal.
   */
  update(taskId: string, patch: TTaskPatch, now?: number): Promise<ITaskRecord | undefined>;
  /**
   * Applies a patch only when the task is still at `version` and not terminal
   * (compare-and-set, for read-modify-write from several instances). Returns
   * the new record, or undefined when the version moved on, the task is
   * terminal, or it is unknown.
   */
  updateIfVersion(taskId: string, version: number, patch: TTaskPatch, now?: number): Promise<ITaskRecord | undefined>;
  /** The owner's tasks, newest first, paginated with an opaque cursor. */
  list(owner: string, opts: { cursor?: string; limit: number }): Promise<TaskPage>;
  /** Non-terminal tasks whose lease expired (their instance is gone). */
  expiredLeases(now: number, limit: number): Promise<ITaskRecord[]>;
  /** Deletes tasks past their expiry; returns how many. */
  sweep(now: number): Promise<number>;
  /** Retained tasks by status (for the `mcp_tasks` gauge). */
  countByStatus(): Promise<Partial<Record<TTaskStatus, number>>>;
  close(): Promise<void>;
  /** Forgets every task (tests between cases; resetTaskStore() calls it). Optional: a shared store may refuse. */
  clear?(): Promise<void>;
}

/** The wire shape of a task (2025-11-25 `Task`). */
export function toTaskDto(record: ITaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage ? { statusMessage: record.statusMessage } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
}
