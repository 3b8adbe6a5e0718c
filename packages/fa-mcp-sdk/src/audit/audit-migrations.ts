/**
 * The PostgreSQL table of the audit trail, created at start under the migrations' advisory lock
 * (state/pg-migrations.ts). One row per record: `body` is the record's canonical JSON, exactly the
 * bytes that were hashed plus `hash`; the other columns repeat fields of it for the common queries
 * (time range, principal, method, target, outcome), and `fa-mcp audit verify` checks they agree.
 *
 * Append-only guard: a trigger refuses every UPDATE, every TRUNCATE and every DELETE, except the
 * DELETE of the retention prune (audit-retention.ts), which sets `fa_mcp.audit_prune` for its own
 * transaction. The guard stops mistakes and casual edits; it does not stop the table's owner or a
 * superuser (who can drop the trigger), and it need not: the hash chain and the signed anchors
 * are what show an edit.
 */
import type { Migration } from '../state/pg-migrations.js';

export const AUDIT_TABLE = 'fa_mcp_audit';

export const AUDIT_MIGRATIONS: readonly Migration[] = [
  {
    id: 'audit-001',
    sql: `CREATE TABLE IF NOT EXISTS fa_mcp_audit (
      id bigserial PRIMARY KEY,
      ts timestamptz NOT NULL,
      instance text NOT NULL,
      chain text NOT NULL,
      seq bigint NOT NULL,
      kind text NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      request_id text,
      subject text,
      method text,
      target_kind text,
      target_name text,
      outcome text,
      code integer,
      body text NOT NULL,
      UNIQUE (chain, seq)
    );
    CREATE INDEX IF NOT EXISTS fa_mcp_audit_ts ON fa_mcp_audit (ts);
    CREATE INDEX IF NOT EXISTS fa_mcp_audit_subject ON fa_mcp_audit (subject, ts) WHERE subject IS NOT NULL;
    CREATE INDEX IF NOT EXISTS fa_mcp_audit_method ON fa_mcp_audit (method, ts);
    CREATE INDEX IF NOT EXISTS fa_mcp_audit_target ON fa_mcp_audit (target_name, ts) WHERE target_name IS NOT NULL;
    CREATE INDEX IF NOT EXISTS fa_mcp_audit_instance ON fa_mcp_audit (instance, id);
    CREATE OR REPLACE FUNCTION fa_mcp_audit_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND current_setting('fa_mcp.audit_prune', true) = 'on' THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'fa_mcp_audit is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    DROP TRIGGER IF EXISTS fa_mcp_audit_append_only ON fa_mcp_audit;
    CREATE TRIGGER fa_mcp_audit_append_only BEFORE UPDATE OR DELETE ON fa_mcp_audit FOR EACH ROW EXECUTE FUNCTION fa_mcp_audit_guard();
    DROP TRIGGER IF EXISTS fa_mcp_audit_no_truncate ON fa_mcp_audit;
    CREATE TRIGGER fa_mcp_audit_no_truncate BEFORE TRUNCATE ON fa_mcp_audit FOR EACH STATEMENT EXECUTE FUNCTION fa_mcp_audit_guard();`,
  },
];

/** The columns a row repeats from its record (besides `body`). */
export interface AuditRow {
  id: string;
  ts: Date;
  instance: string;
  chain: string;
  seq: string;
  kind: string;
  prev_hash: string;
  hash: string;
  request_id: string | null;
  subject: string | null;
  method: string | null;
  target_kind: string | null;
  target_name: string | null;
  outcome: string | null;
  code: number | null;
  body: string;
}

export const ROW_COLUMNS = 'id, ts, instance, chain, seq, kind, prev_hash, hash, request_id, subject, method, target_kind, target_name, outcome, code, body';
