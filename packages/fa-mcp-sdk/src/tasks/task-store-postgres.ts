/**
 * Tasks in PostgreSQL: survive restarts and are shared by every instance.
 * Writes are conditional on the task not being terminal, so a finished task
 * stays as it ended whatever instance writes late.
 */
import type { PgPool } from '../db/pg-types.js';
import { runMigrations, type Migration } from '../state/pg-migrations.js';
import { decodeTaskCursor, encodeTaskCursor } from './task-cursor.js';
import { TaskLimitError, type ITaskCaller, type ITaskCreateInput, type ITaskRecord, type ITaskRelease, type ITaskStore, type ITaskStoreOptions, type TaskPage, type TTaskPatch } from './task-types.js';

export const TASK_MIGRATIONS: readonly Migration[] = [
  {
    id: 'tasks-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_tasks (
      task_id text PRIMARY KEY,
      owner text NOT NULL,
      tool_name text NOT NULL,
      arguments jsonb NOT NULL,
      status text NOT NULL,
      status_message text,
      result jsonb,
      error jsonb,
      input_requests jsonb,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      ttl_ms bigint NOT NULL,
      expires_at bigint NOT NULL,
      poll_interval_ms integer NOT NULL,
      lease_owner text,
      lease_expires_at bigint,
      version integer NOT NULL
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_tasks_owner ON fa_mcp_tasks (owner, created_at DESC, task_id DESC);
    CREATE INDEX IF NOT EXISTS fa_mcp_tasks_expires ON fa_mcp_tasks (expires_at);
    CREATE INDEX IF NOT EXISTS fa_mcp_tasks_lease ON fa_mcp_tasks (lease_expires_at) WHERE status IN ('working', 'input_required');`,
  },
  {
    // Answers delivered by tasks/update (2026-07-28 extension) until the running handler takes them.
    id: 'tasks-002',
    sql: 'ALTER TABLE fa_mcp_tasks ADD COLUMN IF NOT EXISTS input_responses jsonb;',
  },
  {
    // The caller and the run count, for re-running an idempotent tool whose instance stopped.
    id: 'tasks-003',
    sql: `ALTER TABLE fa_mcp_tasks ADD COLUMN IF NOT EXISTS caller jsonb;
    ALTER TABLE fa_mcp_tasks ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 1;`,
  },
  {
    // Why a lease ended early (a planned stop) and how many re-runs were handovers: those do not
    // count against MAX_TASK_ATTEMPTS. Existing rows read as never released, no handover.
    id: 'tasks-004',
    sql: `ALTER TABLE fa_mcp_tasks ADD COLUMN IF NOT EXISTS handovers integer NOT NULL DEFAULT 0;
    ALTER TABLE fa_mcp_tasks ADD COLUMN IF NOT EXISTS lease_release jsonb;`,
  },
];

interface Row {
  task_id: string;
  owner: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  status: ITaskRecord['status'];
  status_message: string | null;
  result: Record<string, unknown> | null;
  error: ITaskRecord['error'] | null;
  input_requests: Record<string, unknown> | null;
  input_responses: Record<string, unknown> | null;
  caller: ITaskCaller | null;
  attempts: number;
  handovers?: number | null;
  lease_release?: ITaskRelease | null;
  created_at: string;
  updated_at: string;
  ttl_ms: string;
  expires_at: string;
  poll_interval_ms: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  version: number;
}

function fromRow(r: Row): ITaskRecord {
  const rec: ITaskRecord = {
    taskId: r.task_id,
    owner: r.owner,
    toolName: r.tool_name,
    arguments: r.arguments,
    status: r.status,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    ttlMs: Number(r.ttl_ms),
    expiresAt: Number(r.expires_at),
    pollIntervalMs: r.poll_interval_ms,
    version: r.version,
    attempts: r.attempts ?? 1,
  };
  if (r.caller) rec.caller = r.caller;
  if (r.handovers) rec.handovers = r.handovers;
  if (r.lease_release) rec.release = r.lease_release;
  if (r.status_message !== null) rec.statusMessage = r.status_message;
  if (r.result !== null) rec.result = r.result;
  if (r.error !== null) rec.error = r.error;
  if (r.input_requests !== null) rec.inputRequests = r.input_requests;
  if (r.input_responses !== null && r.input_responses !== undefined) rec.inputResponses = r.input_responses;
  if (r.lease_owner !== null) rec.leaseOwner = r.lease_owner;
  if (r.lease_expires_at !== null) rec.leaseExpiresAt = Number(r.lease_expires_at);
  return rec;
}

const COLUMN_OF: Record<keyof TTaskPatch, string> = {
  status: 'status',
  statusMessage: 'status_message',
  result: 'result',
  error: 'error',
  inputRequests: 'input_requests',
  inputResponses: 'input_responses',
  leaseOwner: 'lease_owner',
  leaseExpiresAt: 'lease_expires_at',
  attempts: 'attempts',
  handovers: 'handovers',
  release: 'lease_release',
};
const JSON_COLUMNS = new Set(['result', 'error', 'input_requests', 'input_responses', 'lease_release']);

export class PostgresTaskStore implements ITaskStore {
  constructor(
    private readonly pool: PgPool,
    private readonly opts: ITaskStoreOptions,
  ) {}

  /** Creates the tables (idempotent, under an advisory lock). */
  async migrate(): Promise<void> {
    await runMigrations(this.pool, TASK_MIGRATIONS);
  }

  async create(input: ITaskCreateInput): Promise<ITaskRecord> {
    const now = input.now ?? Date.now();
    // One statement: the cap check and the insert see the same snapshot. Under
    // concurrent creates the cap may be passed by at most the number of creates
    // in flight; it never grows without bound, and no connection waits on a lock.
    const inserted = await this.pool.query<Row>(
      `INSERT INTO fa_mcp_tasks (task_id, owner, tool_name, arguments, status, created_at, updated_at, ttl_ms, expires_at, poll_interval_ms, lease_owner, lease_expires_at, version, caller, attempts)
       SELECT $1, $2, $3, $4, 'working', $5, $5, $6, $7, $8, $9, $10, 1, $12, 1
       WHERE (SELECT count(*) FROM fa_mcp_tasks WHERE expires_at > $5) < $11
       RETURNING *`,
      [
        input.taskId, input.owner, input.toolName, JSON.stringify(input.arguments), now, input.ttlMs, now + input.ttlMs, input.pollIntervalMs,
        input.leaseOwner, now + input.leaseMs, this.opts.maxTasks, input.caller ? JSON.stringify(input.caller) : null,
      ],
    );
    const row = inserted.rows[0];
    if (!row) {
      await this.sweep(now);
      throw new TaskLimitError(this.opts.maxTasks);
    }
    return fromRow(row);
  }

  async get(taskId: string): Promise<ITaskRecord | undefined> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM fa_mcp_tasks WHERE task_id = $1', [taskId]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async update(taskId: string, patch: TTaskPatch, now = Date.now()): Promise<ITaskRecord | undefined> {
    return this.write(taskId, patch, now);
  }

  async updateIfVersion(taskId: string, version: number, patch: TTaskPatch, now = Date.now()): Promise<ITaskRecord | undefined> {
    return this.write(taskId, patch, now, version);
  }

  private async write(taskId: string, patch: TTaskPatch, now: number, version?: number): Promise<ITaskRecord | undefined> {
    const sets: string[] = ['updated_at = $2', 'version = version + 1'];
    const values: unknown[] = [taskId, now];
    for (const key of Object.keys(patch) as Array<keyof TTaskPatch>) {
      const column = COLUMN_OF[key];
      if (!column) continue;
      const value = patch[key];
      values.push(value === undefined ? null : JSON_COLUMNS.has(column) ? JSON.stringify(value) : value);
      sets.push(`${column} = $${values.length}`);
    }
    let versionCheck = '';
    if (version !== undefined) {
      values.push(version);
      versionCheck = ` AND version = $${values.length}`;
    }
    const { rows } = await this.pool.query<Row>(
      `UPDATE fa_mcp_tasks SET ${sets.join(', ')} WHERE task_id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')${versionCheck} RETURNING *`,
      values,
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async list(owner: string, opts: { cursor?: string; limit: number }): Promise<TaskPage> {
    const after = opts.cursor ? decodeTaskCursor(opts.cursor) : undefined;
    const { rows } = after
      ? await this.pool.query<Row>(
          `SELECT * FROM fa_mcp_tasks WHERE owner = $1 AND (created_at, task_id) < ($2, $3) ORDER BY created_at DESC, task_id DESC LIMIT $4`,
          [owner, after.createdAt, after.taskId, opts.limit + 1],
        )
      : await this.pool.query<Row>(`SELECT * FROM fa_mcp_tasks WHERE owner = $1 ORDER BY created_at DESC, task_id DESC LIMIT $2`, [owner, opts.limit + 1]);
    const page = rows.slice(0, opts.limit).map(fromRow);
    const last = page[page.length - 1];
    return { tasks: page, ...(rows.length > opts.limit && last ? { nextCursor: encodeTaskCursor(last.createdAt, last.taskId) } : {}) };
  }

  async expiredLeases(now: number, limit: number): Promise<ITaskRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT * FROM fa_mcp_tasks WHERE status IN ('working', 'input_required') AND lease_expires_at < $1 ORDER BY lease_expires_at LIMIT $2`,
      [now, limit],
    );
    return rows.map(fromRow);
  }

  async sweep(now: number): Promise<number> {
    const res = await this.pool.query('DELETE FROM fa_mcp_tasks WHERE expires_at <= $1', [now]);
    return res.rowCount ?? 0;
  }

  async countByStatus(): Promise<Partial<Record<ITaskRecord['status'], number>>> {
    const { rows } = await this.pool.query<{ status: ITaskRecord['status']; n: string }>('SELECT status, count(*) AS n FROM fa_mcp_tasks GROUP BY status');
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async close(): Promise<void> {
    // the pool belongs to whoever created it
  }
}
