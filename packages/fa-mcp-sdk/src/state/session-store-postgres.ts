/**
 * 2025-era sessions in PostgreSQL (`mcp.sessions.store: postgres`): one row per
 * session, written at initialize, kept current by the instances serving it.
 * Times are epoch milliseconds of the instances' clocks, like the other stores.
 */
import type { PgPool } from '../db/pg-types.js';
import { runMigrations, type Migration } from './pg-migrations.js';
import type { ISessionResource } from '../core/session-types.js';
import type { ISessionStore, SessionChange, SessionInitialize, StoredSession } from './session-store.js';

export const SESSION_MIGRATIONS: readonly Migration[] = [
  {
    id: 'sessions-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_sessions (
      id text PRIMARY KEY,
      owner text,
      caller text NOT NULL,
      protocol_version text NOT NULL,
      initialize jsonb NOT NULL,
      log_level text,
      subscriptions jsonb NOT NULL DEFAULT '[]',
      created_at bigint NOT NULL,
      last_seen bigint NOT NULL,
      expires_at bigint NOT NULL,
      holder text
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_sessions_expires ON fa_mcp_sessions (expires_at);`,
  },
  {
    // A session's own resources (session.resources): gone with their session, however it goes (end, sweep).
    id: 'sessions-002',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_session_resources (
      session_id text NOT NULL REFERENCES fa_mcp_sessions (id) ON DELETE CASCADE,
      uri text NOT NULL,
      resource jsonb NOT NULL,
      seq bigserial NOT NULL,
      PRIMARY KEY (session_id, uri)
    );`,
  },
];

interface Row {
  id: string;
  owner: string | null;
  caller: string;
  protocol_version: string;
  initialize: SessionInitialize;
  log_level: string | null;
  subscriptions: string[];
  created_at: string;
  last_seen: string;
  expires_at: string;
  holder: string | null;
}

function fromRow(r: Row): StoredSession {
  return {
    id: r.id,
    ...(r.owner !== null ? { owner: r.owner } : {}),
    caller: r.caller,
    protocolVersion: r.protocol_version,
    initialize: r.initialize,
    ...(r.log_level !== null ? { logLevel: r.log_level } : {}),
    subscriptions: r.subscriptions,
    createdAt: Number(r.created_at),
    lastSeen: Number(r.last_seen),
    expiresAt: Number(r.expires_at),
    ...(r.holder !== null ? { holder: r.holder } : {}),
  };
}

export class PostgresSessionStore implements ISessionStore {
  constructor(private readonly pool: PgPool) {}

  async migrate(): Promise<void> {
    await runMigrations(this.pool, SESSION_MIGRATIONS);
  }

  async create(s: StoredSession): Promise<void> {
    await this.pool.query(
      `INSERT INTO fa_mcp_sessions (id, owner, caller, protocol_version, initialize, log_level, subscriptions, created_at, last_seen, expires_at, holder)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [s.id, s.owner ?? null, s.caller, s.protocolVersion, JSON.stringify(s.initialize), s.logLevel ?? null, JSON.stringify(s.subscriptions), s.createdAt, s.lastSeen, s.expiresAt, s.holder ?? null],
    );
  }

  async get(id: string, now = Date.now()): Promise<StoredSession | undefined> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM fa_mcp_sessions WHERE id = $1 AND expires_at > $2', [id, now]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async touch(id: string, now: number, idleTimeoutMs: number): Promise<void> {
    // Never backwards: instances write their own last request, in any order.
    await this.pool.query('UPDATE fa_mcp_sessions SET last_seen = $2, expires_at = $3 WHERE id = $1 AND last_seen < $2', [id, now, now + idleTimeoutMs]);
  }

  async update(id: string, change: SessionChange): Promise<void> {
    // One change at a time, applied in SQL: two instances changing one session's subscriptions do not undo each other.
    if ('logLevel' in change) await this.pool.query('UPDATE fa_mcp_sessions SET log_level = $2 WHERE id = $1', [id, change.logLevel]);
    else if ('subscribe' in change) {
      await this.pool.query(
        `UPDATE fa_mcp_sessions SET subscriptions = subscriptions || to_jsonb($2::text) WHERE id = $1 AND NOT subscriptions ? $2`,
        [id, change.subscribe],
      );
    } else await this.pool.query('UPDATE fa_mcp_sessions SET subscriptions = subscriptions - $2::text WHERE id = $1', [id, change.unsubscribe]);
  }

  async claimHolder(id: string, holder: string, from?: string): Promise<boolean> {
    const { rowCount } = from === undefined
      ? await this.pool.query('UPDATE fa_mcp_sessions SET holder = $2 WHERE id = $1', [id, holder])
      : await this.pool.query('UPDATE fa_mcp_sessions SET holder = $2 WHERE id = $1 AND holder = $3', [id, holder, from]);
    return (rowCount ?? 0) > 0;
  }

  async delete(id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM fa_mcp_sessions WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async resources(id: string): Promise<ISessionResource[]> {
    const { rows } = await this.pool.query<{ resource: ISessionResource }>('SELECT resource FROM fa_mcp_session_resources WHERE session_id = $1 ORDER BY seq', [id]);
    return rows.map((r) => r.resource);
  }

  async resource(id: string, uri: string): Promise<ISessionResource | undefined> {
    const { rows } = await this.pool.query<{ resource: ISessionResource }>('SELECT resource FROM fa_mcp_session_resources WHERE session_id = $1 AND uri = $2', [id, uri]);
    return rows[0]?.resource;
  }

  async putResource(id: string, resource: ISessionResource): Promise<boolean> {
    // Only while the session lives (a replaced one moves to the end, as the memory keeper orders them).
    const { rowCount } = await this.pool.query(
      `INSERT INTO fa_mcp_session_resources (session_id, uri, resource)
       SELECT id, $2, $3 FROM fa_mcp_sessions WHERE id = $1
       ON CONFLICT (session_id, uri) DO UPDATE SET resource = EXCLUDED.resource, seq = DEFAULT`,
      [id, resource.uri, JSON.stringify(resource)],
    );
    return (rowCount ?? 0) > 0;
  }

  async deleteResource(id: string, uri: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM fa_mcp_session_resources WHERE session_id = $1 AND uri = $2', [id, uri])).rowCount ?? 0) > 0;
  }

  async sweep(now = Date.now()): Promise<number> {
    return (await this.pool.query('DELETE FROM fa_mcp_sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}
