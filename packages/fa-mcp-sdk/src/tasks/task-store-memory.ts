/** Tasks in process memory: the zero-setup default (lost on restart, one instance only). */
import { decodeTaskCursor, encodeTaskCursor } from './task-cursor.js';
import {
  isTerminalTaskStatus, TaskLimitError,
  type ITaskCreateInput, type ITaskRecord, type ITaskStore, type ITaskStoreOptions, type TaskPage, type TTaskPatch, type TTaskStatus,
} from './task-types.js';

export class InMemoryTaskStore implements ITaskStore {
  private readonly tasks = new Map<string, ITaskRecord>();

  constructor(private readonly opts: ITaskStoreOptions) {}

  async create(input: ITaskCreateInput): Promise<ITaskRecord> {
    const now = input.now ?? Date.now();
    if (this.tasks.size >= this.opts.maxTasks) {
      await this.sweep(now);
      if (this.tasks.size >= this.opts.maxTasks) throw new TaskLimitError(this.opts.maxTasks);
    }
    if (this.tasks.has(input.taskId)) throw new Error(`Task ${input.taskId} exists already`);
    const record: ITaskRecord = {
      taskId: input.taskId,
      owner: input.owner,
      toolName: input.toolName,
      arguments: input.arguments,
      status: 'working',
      createdAt: now,
      updatedAt: now,
      ttlMs: input.ttlMs,
      expiresAt: now + input.ttlMs,
      pollIntervalMs: input.pollIntervalMs,
      leaseOwner: input.leaseOwner,
      leaseExpiresAt: now + input.leaseMs,
      version: 1,
      attempts: 1,
      ...(input.caller ? { caller: input.caller } : {}),
    };
    this.tasks.set(record.taskId, record);
    return structuredClone(record);
  }

  async get(taskId: string): Promise<ITaskRecord | undefined> {
    const r = this.tasks.get(taskId);
    return r ? structuredClone(r) : undefined;
  }

  async update(taskId: string, patch: TTaskPatch, now = Date.now()): Promise<ITaskRecord | undefined> {
    const r = this.tasks.get(taskId);
    if (!r || isTerminalTaskStatus(r.status)) return undefined;
    const next: ITaskRecord = { ...r, ...patch, updatedAt: now, version: r.version + 1 };
    for (const key of Object.keys(patch) as Array<keyof TTaskPatch>) if (patch[key] === undefined) delete next[key];
    this.tasks.set(taskId, next);
    return structuredClone(next);
  }

  async updateIfVersion(taskId: string, version: number, patch: TTaskPatch, now = Date.now()): Promise<ITaskRecord | undefined> {
    // Nothing awaits between the check and the write: atomic in one process.
    if (this.tasks.get(taskId)?.version !== version) return undefined;
    return this.update(taskId, patch, now);
  }

  async list(owner: string, opts: { cursor?: string; limit: number }): Promise<TaskPage> {
    const after = opts.cursor ? decodeTaskCursor(opts.cursor) : undefined;
    const mine = [...this.tasks.values()]
      .filter((t) => t.owner === owner)
      .sort((a, b) => b.createdAt - a.createdAt || (a.taskId < b.taskId ? 1 : -1))
      .filter((t) => !after || t.createdAt < after.createdAt || (t.createdAt === after.createdAt && t.taskId < after.taskId));
    const page = mine.slice(0, opts.limit);
    const last = page[page.length - 1];
    return {
      tasks: page.map((t) => structuredClone(t)),
      ...(mine.length > opts.limit && last ? { nextCursor: encodeTaskCursor(last.createdAt, last.taskId) } : {}),
    };
  }

  async expiredLeases(now: number, limit: number): Promise<ITaskRecord[]> {
    return [...this.tasks.values()]
      .filter((t) => !isTerminalTaskStatus(t.status) && (t.leaseExpiresAt ?? Infinity) < now)
      .slice(0, limit)
      .map((t) => structuredClone(t));
  }

  async sweep(now: number): Promise<number> {
    let n = 0;
    for (const [id, t] of this.tasks) {
      if (t.expiresAt <= now) {
        this.tasks.delete(id);
        n++;
      }
    }
    return n;
  }

  async countByStatus(): Promise<Partial<Record<TTaskStatus, number>>> {
    const out: Partial<Record<TTaskStatus, number>> = {};
    for (const t of this.tasks.values()) out[t.status] = (out[t.status] ?? 0) + 1;
    return out;
  }

  async close(): Promise<void> {
    this.tasks.clear();
  }

  async clear(): Promise<void> {
    this.tasks.clear();
  }
}
