/**
 * Minted resources in PostgreSQL: readable from every instance and kept across
 * restarts, bounded in count and bytes like the memory store (the oldest go
 * first; concurrent writers may pass a cap briefly, by the writes in flight).
 */
import type { PgPool } from '../db/pg-types.js';
import { runMigrations, type Migration } from './pg-migrations.js';
import type { IResourceStore, IResourceStoreOptions, IStoredResource } from './resource-store.js';

export const RESOURCE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'resources-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_resources (
      seq bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      uri text NOT NULL,
      meta jsonb NOT NULL,
      text_content text,
      blob_content text,
      size bigint NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_resources_expires ON fa_mcp_resources (expires_at);`,
  },
];

interface Row {
  id: string;
  uri: string;
  meta: { name: string; title?: string; description?: string; mimeType?: string };
  text_content: string | null;
  blob_content: string | null;
  size: string;
  created_at: string;
  expires_at: string;
}

function fromRow(r: Row): IStoredResource {
  const { name, title, description, mimeType } = r.meta;
  return {
    id: r.id,
    uri: r.uri,
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...(r.text_content !== null ? { text: r.text_content } : {}),
    ...(r.blob_content !== null ? { blob: r.blob_content } : {}),
    size: Number(r.size),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
  };
}

export class PostgresResourceStore implements IResourceStore {
  constructor(
    private readonly pool: PgPool,
    private readonly opts: IResourceStoreOptions,
  ) {}

  /** Creates the table (idempotent, under the migrations' advisory lock). */
  async migrate(): Promise<void> {
    await runMigrations(this.pool, RESOURCE_MIGRATIONS);
  }

  async put(r: IStoredResource): Promise<void> {
    const meta = { name: r.name, title: r.title, description: r.description, mimeType: r.mimeType };
    const { rows } = await this.pool.query<{ seq: string }>(
      `INSERT INTO fa_mcp_resources (id, uri, meta, text_content, blob_content, size, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET uri = EXCLUDED.uri, meta = EXCLUDED.meta, text_content = EXCLUDED.text_content,
         blob_content = EXCLUDED.blob_content, size = EXCLUDED.size, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       RETURNING seq`,
      [r.id, r.uri, JSON.stringify(meta), r.text ?? null, r.blob ?? null, r.size, r.createdAt, r.expiresAt],
    );
    // Newest first, a running count and byte total: everything past a cap goes,
    // except the row just written, and the expired rows go too.
    await this.pool.query(
      `DELETE FROM fa_mcp_resources WHERE expires_at <= $1 OR seq IN (
         SELECT seq FROM (
           SELECT seq, row_number() OVER w AS n, sum(size) OVER w AS total
           FROM fa_mcp_resources WHERE expires_at > $1 WINDOW w AS (ORDER BY seq DESC)
         ) ranked
         WHERE (n > $2 OR total > $3) AND seq <> $4
       )`,
      [Date.now(), this.opts.maxResources, this.opts.maxBytes, rows[0]?.seq ?? 0],
    );
  }

  async get(id: string, now = Date.now()): Promise<IStoredResource | undefined> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM fa_mcp_resources WHERE id = $1 AND expires_at > $2', [id, now]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM fa_mcp_resources WHERE id = $1', [id]);
    return (res.rowCount ?? 0) > 0;
  }

  async sweep(now = Date.now()): Promise<number> {
    const res = await this.pool.query('DELETE FROM fa_mcp_resources WHERE expires_at <= $1', [now]);
    return res.rowCount ?? 0;
  }

  async close(): Promise<void> {
    // the pool belongs to whoever created it
  }
}
