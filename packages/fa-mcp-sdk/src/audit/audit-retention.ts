/**
 * Retention of the PostgreSQL audit table (`mcp.audit.retentionDays`): per chain, the records
 * older than the cutoff are deleted and one `checkpoint` row takes the place of the last of them.
 * The checkpoint carries that record's seq and hash (signed when anchors are on), so the chain
 * stays verifiable from its new start: the first record left links to the checkpoint's hash.
 * One transaction; one instance at a time (an advisory lock; the others skip that round); the
 * table's guard lets this DELETE through and no other.
 */
import type { PgPool } from '../db/pg-types.js';
import type { AnchorSigner } from './anchor-signer.js';
import type { AuditRow } from './audit-migrations.js';
import { AUDIT_RECORD_VERSION, type AuditRecord } from './audit-record.js';
import { recordLine, signRecord } from './record-hash.js';

const LOCK_KEY = 'fa-mcp-sdk:audit-prune';

export interface PruneResult {
  /** False when another instance was pruning (nothing done). */
  ran: boolean;
  /** Records deleted (checkpoints replaced are not counted). */
  deleted: number;
  /** Chains that got a new checkpoint. */
  chains: number;
  before: string;
}

interface Candidate {
  chain: string;
  seq: string;
}

export async function pruneAudit(pool: PgPool, before: Date, signer: AnchorSigner | undefined, now: Date = new Date()): Promise<PruneResult> {
  const result: PruneResult = { ran: false, deleted: 0, chains: 0, before: before.toISOString() };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [LOCK_KEY]);
    if (!locked.rows[0]?.ok) {
      await client.query('ROLLBACK');
      return result;
    }
    result.ran = true;
    await client.query("SELECT set_config('fa_mcp.audit_prune', 'on', true)");
    const candidates = await client.query<Candidate>("SELECT chain, max(seq) AS seq FROM fa_mcp_audit WHERE ts < $1 AND kind <> 'checkpoint' GROUP BY chain", [before]);
    for (const { chain, seq } of candidates.rows) {
      const last = (await client.query<AuditRow>('SELECT * FROM fa_mcp_audit WHERE chain = $1 AND seq = $2', [chain, seq])).rows[0];
      if (!last) continue;
      const prior = (await client.query<{ body: string }>("SELECT body FROM fa_mcp_audit WHERE chain = $1 AND kind = 'checkpoint'", [chain])).rows[0];
      const priorCount = prior ? ((JSON.parse(prior.body) as AuditRecord).pruned?.count ?? 0) : 0;
      const deleted = await client.query("DELETE FROM fa_mcp_audit WHERE chain = $1 AND seq <= $2 AND kind <> 'checkpoint'", [chain, seq]);
      await client.query("DELETE FROM fa_mcp_audit WHERE chain = $1 AND kind = 'checkpoint'", [chain]);
      const count = deleted.rowCount ?? 0;
      const lastRecord = JSON.parse(last.body) as AuditRecord;
      const unsigned: AuditRecord = {
        v: AUDIT_RECORD_VERSION,
        kind: 'checkpoint',
        ts: lastRecord.ts,
        instance: last.instance,
        chain,
        seq: Number(seq),
        prevHash: last.prev_hash,
        hash: last.hash,
        pruned: { count: priorCount + count, before: before.toISOString(), at: now.toISOString() },
      };
      const checkpoint = signer ? signRecord(unsigned, signer) : unsigned;
      await client.query(
        `INSERT INTO fa_mcp_audit (ts, instance, chain, seq, kind, prev_hash, hash, body) VALUES ($1, $2, $3, $4, 'checkpoint', $5, $6, $7)`,
        [checkpoint.ts, checkpoint.instance, chain, seq, checkpoint.prevHash, checkpoint.hash, recordLine(checkpoint)],
      );
      result.deleted += count;
      result.chains += 1;
    }
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
