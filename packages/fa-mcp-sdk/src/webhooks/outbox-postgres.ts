/**
 * The outbox in PostgreSQL: an event is committed before `send` resolves, so
 * it survives a kill -9; every instance reads the same table, and a due event
 * is claimed by one of them (`FOR UPDATE SKIP LOCKED`, then a lease). A crashed
 * instance's claims expire and another instance (or its restart) takes them.
 */
import type { PgPool } from '../db/pg-types.js';
import { runMigrations, type Migration } from '../state/pg-migrations.js';
import type { AttemptRecord, IWebhookOutbox, NewWebhookDelivery, WebhookDelivery, WebhookDeliveryStatus } from './webhook-types.js';

/** The DDL of an outbox table (`fa_mcp_webhook_outbox`, and the Events extension's `fa_mcp_event_outbox`). */
export function outboxTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
      id text NOT NULL,
      endpoint text NOT NULL,
      type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at bigint NOT NULL,
      lease_owner text,
      lease_expires_at bigint,
      last_error text,
      last_status integer,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      delivered_at bigint,
      PRIMARY KEY (endpoint, id)
    );
    CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (next_attempt_at) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS ${table}_status ON ${table} (status, updated_at DESC);`;
}

/** The order of deliveries to one endpoint (an ordered outbox delivers them one after the other). */
export function outboxSeqSql(table: string): string {
  return `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS seq bigint NOT NULL DEFAULT 0;
    CREATE INDEX IF NOT EXISTS ${table}_endpoint_seq ON ${table} (endpoint, seq) WHERE status = 'pending';`;
}

export const WEBHOOK_MIGRATIONS: readonly Migration[] = [
  { id: 'webhooks-001', sql: outboxTableSql('fa_mcp_webhook_outbox') },
  { id: 'webhooks-002', sql: outboxSeqSql('fa_mcp_webhook_outbox') },
];

/** An INSERT of deliveries into an outbox table (one of an existing (endpoint, id) is left as it is). */
export function insertDeliveriesQuery(table: string, deliveries: readonly NewWebhookDelivery[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const rows = deliveries.map((d, i) => {
    values.push(d.id, d.endpoint, d.type, d.body, d.now, d.seq ?? 0);
    const b = i * 6;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, 'pending', 0, $${b + 5}, $${b + 5}, $${b + 5}, $${b + 6})`;
  });
  return {
    text: `INSERT INTO ${table} (id, endpoint, type, body, status, attempts, next_attempt_at, created_at, updated_at, seq)
       VALUES ${rows.join(', ')} ON CONFLICT (endpoint, id) DO NOTHING`,
    values,
  };
}

export interface PostgresOutboxOptions {
  /** The table (default `fa_mcp_webhook_outbox`); its migrations are the caller's. */
  table?: string;
  /** Deliver to each endpoint in `seq` order: a delivery waits while an earlier one of its endpoint is pending. */
  ordered?: boolean;
}

interface Row {
  id: string;
  endpoint: string;
  type: string;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  last_status: number | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

const COLUMNS = 'id, endpoint, type, body, status, attempts, next_attempt_at, last_error, last_status, created_at, updated_at, delivered_at';

function fromRow(r: Row): WebhookDelivery {
  return {
    id: r.id,
    endpoint: r.endpoint,
    type: r.type,
    body: r.body,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: Number(r.next_attempt_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    ...(r.last_error !== null ? { lastError: r.last_error } : {}),
    ...(r.last_status !== null ? { lastStatus: r.last_status } : {}),
    ...(r.delivered_at !== null ? { deliveredAt: Number(r.delivered_at) } : {}),
  };
}

export class PostgresWebhookOutbox implements IWebhookOutbox {
  private readonly table: string;
  private readonly ordered: boolean;

  constructor(
    private readonly pool: PgPool,
    options: PostgresOutboxOptions = {},
  ) {
    this.table = options.table ?? 'fa_mcp_webhook_outbox';
    this.ordered = options.ordered ?? false;
  }

  /** Creates the table (idempotent, under the migrations' advisory lock). */
  async migrate(): Promise<void> {
    await runMigrations(this.pool, WEBHOOK_MIGRATIONS);
  }

  async add(deliveries: NewWebhookDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const q = insertDeliveriesQuery(this.table, deliveries);
    await this.pool.query(q.text, q.values);
  }

  async claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    const { rows } = await this.pool.query<Row>(
      `UPDATE ${this.table} o SET lease_owner = $1, lease_expires_at = $2
       FROM (SELECT endpoint, id FROM ${this.table} c
             WHERE status = 'pending' AND next_attempt_at <= $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $3)${
               this.ordered ? ` AND NOT EXISTS (SELECT 1 FROM ${this.table} p WHERE p.endpoint = c.endpoint AND p.status = 'pending' AND p.seq < c.seq)` : ''
             }
             ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED) due
       WHERE o.endpoint = due.endpoint AND o.id = due.id
       RETURNING ${COLUMNS.split(', ').map((c) => `o.${c}`).join(', ')}`,
      [owner, leaseUntil, now, limit],
    );
    return rows.map(fromRow);
  }

  async record(id: string, endpoint: string, owner: string, attempt: AttemptRecord): Promise<boolean> {
    const status = attempt.outcome === 'delivered' ? 'delivered' : attempt.outcome === 'dead' ? 'dead' : 'pending';
    const error = attempt.outcome === 'delivered' ? null : attempt.error;
    const httpStatus = attempt.status ?? null;
    const next = attempt.outcome === 'retry' ? attempt.nextAttemptAt : null;
    const { rowCount } = await this.pool.query(
      `UPDATE ${this.table} SET status = $4, attempts = attempts + 1, last_error = $5, last_status = $6,
         next_attempt_at = COALESCE($7, next_attempt_at), updated_at = $8,
         delivered_at = CASE WHEN $4 = 'delivered' THEN $8 ELSE delivered_at END,
         lease_owner = NULL, lease_expires_at = NULL
       WHERE endpoint = $1 AND id = $2 AND lease_owner = $3 AND status = 'pending'`,
      [endpoint, id, owner, status, error, httpStatus, next, attempt.now],
    );
    return rowCount === 1;
  }

  async list(status: WebhookDeliveryStatus, limit: number): Promise<WebhookDelivery[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE status = $1 ORDER BY updated_at DESC, id LIMIT $2`,
      [status, limit],
    );
    return rows.map(fromRow);
  }

  async resend(now: number, ids?: string[]): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE ${this.table} SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_expires_at = NULL
       WHERE status = 'dead' AND ($2::text[] IS NULL OR id = ANY($2::text[]))`,
      [now, ids ?? null],
    );
    return rowCount ?? 0;
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    const { rows } = await this.pool.query<{ status: WebhookDeliveryStatus; n: string }>(
      `SELECT status, count(*) AS n FROM ${this.table} GROUP BY status`,
    );
    const out: Record<WebhookDeliveryStatus, number> = { pending: 0, delivered: 0, dead: 0 };
    for (const r of rows) out[r.status] = Number(r.n);
    return out;
  }

  async sweep(before: number): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE status = 'delivered' AND delivered_at < $1`, [before]);
  }

  /** The lowest `seq` of the pending deliveries to one endpoint, if any. */
  async minPendingSeq(endpoint: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ seq: string | null }>(`SELECT min(seq) AS seq FROM ${this.table} WHERE endpoint = $1 AND status = 'pending'`, [endpoint]);
    const seq = rows[0]?.seq;
    return seq === null || seq === undefined ? undefined : Number(seq);
  }

  async dropPending(endpoint: string): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM ${this.table} WHERE endpoint = $1 AND status = 'pending'`, [endpoint]);
    return rowCount ?? 0;
  }

  async close(): Promise<void> {}
}
