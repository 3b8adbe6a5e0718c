/**
 * Resumability events in PostgreSQL: the same contract as the memory store
 * (bounded per stream, expiring after `retentionMs`), kept off the heap and
 * across restarts. One insert per event trims its stream in the same statement.
 */
import type { PgPool } from '../db/pg-types.js';
import { UNKNOWN_EVENT_ID, type IEventStore, type JsonRpcMessageLike } from './event-store-memory.js';
import { runMigrations, type Migration } from './pg-migrations.js';

export const EVENT_MIGRATIONS: readonly Migration[] = [
  {
    id: 'events-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_events (
      seq bigserial PRIMARY KEY,
      event_id text NOT NULL UNIQUE,
      stream_id text NOT NULL,
      message json NOT NULL,
      created_at bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_events_stream ON fa_mcp_events (stream_id text_pattern_ops, seq);
    CREATE INDEX IF NOT EXISTS fa_mcp_events_created ON fa_mcp_events (created_at);`,
  },
];

export interface PostgresEventStoreOptions {
  /** Events kept per stream (default 1000); the oldest go first. */
  maxEventsPerStream?: number;
  /** Age after which an event is not replayed and is swept (default 30 minutes). */
  retentionMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** `LIKE` pattern matching every string that starts with `prefix`. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class PostgresEventStore implements IEventStore {
  private readonly maxEvents: number;
  private readonly retentionMs: number;
  private readonly now: () => number;

  constructor(
    private readonly pool: PgPool,
    opts: PostgresEventStoreOptions = {},
  ) {
    this.maxEvents = opts.maxEventsPerStream ?? 1000;
    this.retentionMs = opts.retentionMs ?? 1_800_000;
    this.now = opts.now ?? Date.now;
  }

  /** Creates the table (idempotent, under the migrations' advisory lock). */
  async migrate(): Promise<void> {
    await runMigrations(this.pool, EVENT_MIGRATIONS);
  }

  async storeEvent(streamId: string, message: JsonRpcMessageLike): Promise<string> {
    const eventId = crypto.randomUUID();
    // The DELETE sees the rows as they were before this INSERT: it keeps the
    // newest maxEvents-1 of them, so with the new one the stream holds maxEvents.
    await this.pool.query(
      `WITH added AS (
         INSERT INTO fa_mcp_events (event_id, stream_id, message, created_at) VALUES ($1, $2, $3, $4) RETURNING seq
       )
       DELETE FROM fa_mcp_events WHERE stream_id = $2 AND seq <= (
         SELECT seq FROM fa_mcp_events WHERE stream_id = $2 ORDER BY seq DESC OFFSET $5 LIMIT 1
       )`,
      [eventId, streamId, JSON.stringify(message), this.now(), this.maxEvents - 1],
    );
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return (await this.find(eventId))?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JsonRpcMessageLike) => Promise<void> }): Promise<string> {
    const found = await this.find(lastEventId);
    if (!found) throw new Error(UNKNOWN_EVENT_ID);
    const { rows } = await this.pool.query<{ event_id: string; message: JsonRpcMessageLike }>(
      'SELECT event_id, message FROM fa_mcp_events WHERE stream_id = $1 AND seq > $2 AND created_at > $3 ORDER BY seq',
      [found.streamId, found.seq, this.cutoff()],
    );
    for (const row of rows) await send(row.event_id, row.message);
    return found.streamId;
  }

  async sweep(now = this.now()): Promise<number> {
    const res = await this.pool.query('DELETE FROM fa_mcp_events WHERE created_at <= $1', [now - this.retentionMs]);
    return res.rowCount ?? 0;
  }

  async dropStreamsOf(prefix: string): Promise<number> {
    const res = await this.pool.query("DELETE FROM fa_mcp_events WHERE stream_id LIKE $1 ESCAPE '\\'", [likePrefix(prefix)]);
    return res.rowCount ?? 0;
  }

  async close(): Promise<void> {
    // the pool belongs to whoever created it
  }

  private cutoff(): number {
    return this.now() - this.retentionMs;
  }

  private async find(eventId: string): Promise<{ streamId: string; seq: string } | undefined> {
    const { rows } = await this.pool.query<{ stream_id: string; seq: string }>(
      'SELECT stream_id, seq FROM fa_mcp_events WHERE event_id = $1 AND created_at > $2',
      [eventId, this.cutoff()],
    );
    const row = rows[0];
    return row ? { streamId: row.stream_id, seq: row.seq } : undefined;
  }
}
