/**
 * Where audit records are written: a JSON Lines file or stream (sink-jsonl.ts) or the PostgreSQL
 * table (sink-postgres.ts). The writer (audit-writer.ts) hands a sink one batch at a time, in chain
 * order, and never two at once.
 */
import type { AuditRecord } from './audit-record.js';

/** The last record of a chain: what the next chain of the instance names as its `previous`. */
export interface ChainHead {
  chain: string;
  seq: number;
  hash: string;
}

export interface AuditSink {
  /** For logs and /ready: `jsonl:/var/log/audit.jsonl`, `jsonl:stderr`, `postgres:main`. */
  readonly name: string;
  /**
   * Writes a batch, all of it or none of it (a failed append leaves the sink as it was). With
   * `durable`, resolves only once the records survive a crash of this process: fsync of the file,
   * commit of the rows (a stream: accepted by the operating system).
   */
  append(records: readonly AuditRecord[], lines: readonly string[], durable: boolean): Promise<void>;
  /** The last record `instance` wrote, for the start of its next chain; undefined when the sink cannot read back (a stream). */
  lastHead(instance: string): Promise<ChainHead | undefined>;
  /** Resolves when the sink can take records; rejects saying why not. */
  check(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
