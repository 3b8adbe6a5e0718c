/**
 * The Events extension's state in PostgreSQL, shared by every instance: an append is one
 * transaction that takes the event type's next position (a row lock on its head, so
 * positions are handed out in commit order and a reader never skips one still being written),
 * stores the occurrence and the deliveries of the webhook subscriptions it matches. The
 * cursor key and epoch live in the database too, so a cursor one instance issued is read by
 * every other, and after a restart.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { JsonObject } from '../core/json-object.js';
import type { PgPool } from '../db/pg-types.js';
import { runMigrations, type Migration } from '../state/pg-migrations.js';
import { insertDeliveriesQuery, outboxSeqSql, outboxTableSql, PostgresWebhookOutbox } from '../webhooks/outbox-postgres.js';
import type { NewWebhookDelivery } from '../webhooks/webhook-types.js';
import type { AppendOutcome, EventSubscription, EventFanout, IMcpEventsStore, NewOccurrence, StoredOccurrence, SubscriberAuth } from './events-store.js';

const OUTBOX = 'fa_mcp_event_outbox';

export const MCP_EVENTS_MIGRATIONS: readonly Migration[] = [
  {
    id: 'mcp-events-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_event_meta (k text PRIMARY KEY, v text NOT NULL);
    CREATE TABLE IF NOT EXISTS fa_mcp_event_heads (name text PRIMARY KEY, seq bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS fa_mcp_event_occurrences (
      name text NOT NULL,
      seq bigint NOT NULL,
      event_id text NOT NULL,
      ts bigint NOT NULL,
      data text NOT NULL,
      PRIMARY KEY (name, seq),
      UNIQUE (name, event_id)
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_event_occurrences_ts ON fa_mcp_event_occurrences (ts);
    CREATE TABLE IF NOT EXISTS fa_mcp_event_subscriptions (
      id text PRIMARY KEY,
      principal text NOT NULL,
      auth text NOT NULL,
      name text NOT NULL,
      arguments text NOT NULL,
      url text NOT NULL,
      secret text NOT NULL,
      expires_at bigint,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_event_subscriptions_name ON fa_mcp_event_subscriptions (name);
    CREATE INDEX IF NOT EXISTS fa_mcp_event_subscriptions_principal ON fa_mcp_event_subscriptions (principal);
    ${outboxTableSql(OUTBOX)}
    ${outboxSeqSql(OUTBOX)}`,
  },
];

interface OccurrenceRow {
  name: string;
  seq: string;
  event_id: string;
  ts: string;
  data: string;
}

interface SubscriptionRow {
  id: string;
  principal: string;
  auth: string;
  name: string;
  arguments: string;
  url: string;
  secret: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

const occurrenceOf = (r: OccurrenceRow): StoredOccurrence => ({ name: r.name, seq: Number(r.seq), eventId: r.event_id, timestamp: Number(r.ts), data: JSON.parse(r.data) as JsonObject });

const subscriptionOf = (r: SubscriptionRow): EventSubscription => ({
  id: r.id,
  principal: r.principal,
  auth: JSON.parse(r.auth) as SubscriberAuth,
  name: r.name,
  arguments: JSON.parse(r.arguments) as JsonObject,
  url: r.url,
  secret: r.secret,
  expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export class PostgresMcpEventsStore implements IMcpEventsStore {
  readonly durable = true;
  readonly outbox: PostgresWebhookOutbox;

  private constructor(
    private readonly pool: PgPool,
    readonly epoch: string,
    readonly cursorKey: Buffer,
  ) {
    this.outbox = new PostgresWebhookOutbox(pool, { table: OUTBOX, ordered: true });
  }

  /** Migrates (under the migrations' advisory lock) and reads the epoch and cursor key, made once for the database. */
  static async open(pool: PgPool): Promise<PostgresMcpEventsStore> {
    await runMigrations(pool, MCP_EVENTS_MIGRATIONS);
    await pool.query(`INSERT INTO fa_mcp_event_meta (k, v) VALUES ('epoch', $1), ('cursor_key', $2) ON CONFLICT (k) DO NOTHING`, [
      randomUUID().replace(/-/g, '').slice(0, 16),
      randomBytes(32).toString('base64'),
    ]);
    const { rows } = await pool.query<{ k: string; v: string }>(`SELECT k, v FROM fa_mcp_event_meta WHERE k IN ('epoch', 'cursor_key')`);
    const meta = new Map(rows.map((r) => [r.k, r.v]));
    return new PostgresMcpEventsStore(pool, meta.get('epoch') ?? '', Buffer.from(meta.get('cursor_key') ?? '', 'base64'));
  }

  async append(input: NewOccurrence, fanout: EventFanout | undefined): Promise<AppendOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // The head row's lock orders concurrent appends of one type: positions are committed in order.
      const head = await client.query<{ seq: string }>(
        `INSERT INTO fa_mcp_event_heads AS h (name, seq) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET seq = h.seq + 1 RETURNING seq`,
        [input.name],
      );
      const seq = Number(head.rows[0]?.seq);
      const inserted = await client.query(
        `INSERT INTO fa_mcp_event_occurrences (name, seq, event_id, ts, data) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name, event_id) DO NOTHING`,
        [input.name, seq, input.eventId, input.timestamp, JSON.stringify(input.data)],
      );
      if (inserted.rowCount !== 1) {
        await client.query('ROLLBACK');
        const { rows } = await this.pool.query<OccurrenceRow>(`SELECT name, seq, event_id, ts, data FROM fa_mcp_event_occurrences WHERE name = $1 AND event_id = $2`, [input.name, input.eventId]);
        const seen = rows[0];
        return { occurrence: seen ? occurrenceOf(seen) : { ...input, seq: 0 }, duplicate: true, queued: 0 };
      }
      const occurrence: StoredOccurrence = { ...input, seq };
      let queued = 0;
      if (fanout) {
        const subs = await client.query<SubscriptionRow>(`SELECT * FROM fa_mcp_event_subscriptions WHERE name = $1 AND (expires_at IS NULL OR expires_at > $2)`, [input.name, Date.now()]);
        const deliveries = fanout(subs.rows.map(subscriptionOf), occurrence);
        if (deliveries.length > 0) {
          const q = insertDeliveriesQuery(OUTBOX, deliveries);
          await client.query(q.text, q.values);
        }
        queued = deliveries.length;
      }
      await client.query('COMMIT');
      return { occurrence, duplicate: false, queued };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async head(name: string): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string }>('SELECT seq FROM fa_mcp_event_heads WHERE name = $1', [name]);
    return rows[0] ? Number(rows[0].seq) : 0;
  }

  async oldest(name: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ seq: string | null }>('SELECT min(seq) AS seq FROM fa_mcp_event_occurrences WHERE name = $1', [name]);
    const seq = rows[0]?.seq;
    return seq === null || seq === undefined ? undefined : Number(seq);
  }

  async read(name: string, afterSeq: number, limit: number, minTimestamp?: number): Promise<StoredOccurrence[]> {
    const { rows } = await this.pool.query<OccurrenceRow>(
      `SELECT name, seq, event_id, ts, data FROM fa_mcp_event_occurrences WHERE name = $1 AND seq > $2 AND ($4::bigint IS NULL OR ts >= $4) ORDER BY seq LIMIT $3`,
      [name, afterSeq, limit, minTimestamp ?? null],
    );
    return rows.map(occurrenceOf);
  }

  async prune(keep: number, before: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM fa_mcp_event_occurrences e USING fa_mcp_event_heads h WHERE e.name = h.name AND (e.seq <= h.seq - $1 OR e.ts < $2)`,
      [keep, before],
    );
    return rowCount ?? 0;
  }

  async saveSubscription(sub: EventSubscription, maxPerPrincipal: number): Promise<'created' | 'refreshed' | 'limit'> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One principal's subscribes take turns, so two at once cannot both pass the cap.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`fa-mcp-events:${sub.principal}`]);
      const refreshed = await client.query(`UPDATE fa_mcp_event_subscriptions SET secret = $2, expires_at = $3, auth = $4, updated_at = $5 WHERE id = $1`, [
        sub.id,
        sub.secret,
        sub.expiresAt,
        JSON.stringify(sub.auth),
        sub.updatedAt,
      ]);
      if (refreshed.rowCount === 1) {
        await client.query('COMMIT');
        return 'refreshed';
      }
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM fa_mcp_event_subscriptions WHERE principal = $1', [sub.principal]);
      if (Number(rows[0]?.n ?? 0) >= maxPerPrincipal) {
        await client.query('ROLLBACK');
        return 'limit';
      }
      await client.query(
        `INSERT INTO fa_mcp_event_subscriptions (id, principal, auth, name, arguments, url, secret, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [sub.id, sub.principal, JSON.stringify(sub.auth), sub.name, JSON.stringify(sub.arguments), sub.url, sub.secret, sub.expiresAt, sub.createdAt, sub.updatedAt],
      );
      await client.query('COMMIT');
      return 'created';
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async subscription(id: string): Promise<EventSubscription | undefined> {
    const { rows } = await this.pool.query<SubscriptionRow>('SELECT * FROM fa_mcp_event_subscriptions WHERE id = $1', [id]);
    return rows[0] ? subscriptionOf(rows[0]) : undefined;
  }

  async removeSubscription(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM fa_mcp_event_subscriptions WHERE id = $1', [id]);
    await this.outbox.dropPending(id);
    return rowCount === 1;
  }

  async lapse(now: number): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>('DELETE FROM fa_mcp_event_subscriptions WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING id', [now]);
    for (const r of rows) await this.outbox.dropPending(r.id);
    return rows.length;
  }

  async pendingFloor(id: string): Promise<number | undefined> {
    return this.outbox.minPendingSeq(id);
  }

  async queue(deliveries: NewWebhookDelivery[]): Promise<void> {
    await this.outbox.add(deliveries);
  }

  async close(): Promise<void> {}
}
