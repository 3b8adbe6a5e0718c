/**
 * The PostgreSQL sink: a batch is one INSERT (all rows or none), committed before `append`
 * resolves, so in sync mode a record acknowledged is in the table. The table and its guard are
 * created at start (audit-migrations.ts).
 */
import type { PgPool } from '../db/pg-types.js';
import { runMigrations } from '../state/pg-migrations.js';
import { AUDIT_MIGRATIONS } from './audit-migrations.js';
import type { AuditRecord } from './audit-record.js';
import type { AuditSink, ChainHead } from './audit-sink.js';
import { recordOutcome, recordSubject, recordTargetKind, recordTargetName } from './record-fields.js';

const INSERT = `INSERT INTO fa_mcp_audit (ts, instance, chain, seq, kind, prev_hash, hash, request_id, subject, method, target_kind, target_name, outcome, code, body)
  SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::integer[], $15::text[])`;

export class PostgresAuditSink implements AuditSink {
  readonly name: string;

  constructor(
    private readonly pool: PgPool,
    database: string,
  ) {
    this.name = `postgres:${database}`;
  }

  async migrate(): Promise<void> {
    await runMigrations(this.pool, AUDIT_MIGRATIONS);
  }

  async append(records: readonly AuditRecord[], lines: readonly string[]): Promise<void> {
    const cols: unknown[][] = Array.from({ length: 15 }, () => []);
    records.forEach((r, i) => {
      const values = [
        r.ts, r.instance, r.chain, r.seq, r.kind, r.prevHash, r.hash, r.requestId ?? null, recordSubject(r), r.method ?? null,
        recordTargetKind(r), recordTargetName(r), recordOutcome(r), r.outcome?.code ?? null, lines[i],
      ];
      values.forEach((v, c) => (cols[c] as unknown[]).push(v));
    });
    await this.pool.query(INSERT, cols);
  }

  async lastHead(instance: string): Promise<ChainHead | undefined> {
    // Checkpoints are written later than the records they stand for: a chain's own rows first.
    const own = await this.pool.query<{ chain: string; seq: string; hash: string }>(
      "SELECT chain, seq, hash FROM fa_mcp_audit WHERE instance = $1 AND kind <> 'checkpoint' ORDER BY id DESC LIMIT 1",
      [instance],
    );
    const row = own.rows[0] ?? (await this.pool.query<{ chain: string; seq: string; hash: string }>(
      "SELECT chain, seq, hash FROM fa_mcp_audit WHERE instance = $1 AND kind = 'checkpoint' ORDER BY id DESC LIMIT 1",
      [instance],
    )).rows[0];
    return row ? { chain: row.chain, seq: Number(row.seq), hash: row.hash } : undefined;
  }

  async check(): Promise<void> {
    await this.pool.query('SELECT 1 FROM fa_mcp_audit LIMIT 0');
  }

  close(): Promise<void> {
    return Promise.resolve(); // the pool belongs to the server's databases
  }
}
