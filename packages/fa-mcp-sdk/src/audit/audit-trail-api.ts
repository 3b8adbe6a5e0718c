/**
 * What the request layer holds of the audit trail (audit-trail.ts makes it from `mcp.audit`), and
 * the trail of a server with the sink off. Apart from the one that loads the sinks, the writer and
 * prom-client, so a server without an audit trail imports only this.
 */
import type { AuditMode } from '../config/sections/audit.js';
import type { ReadinessCheck } from '../core/readiness-check.js';
import type { AuditDraft } from './audit-record.js';
import type { PruneResult } from './audit-retention.js';

export interface AuditTrail {
  /** False with `sink: off`: `record` does nothing, and the request layer need not build drafts. */
  readonly enabled: boolean;
  readonly mode: AuditMode;
  readonly instance: string;
  /** This process's chain id (undefined when off). */
  readonly chain: string | undefined;
  /**
   * Records one request or task change. sync: resolves once the record is durable; rejects with an
   * UpstreamUnavailableError (-32006, data.reason `audit_unavailable`) when it cannot be written,
   * after queuing the record again as a request that failed with -32006 (so do not record it
   * again). async: resolves at once (queued, or dropped and counted).
   */
  record(draft: AuditDraft): Promise<void>;
  /** The `/ready` check (`audit`): the sink is reachable and the last append did not fail. */
  readinessCheck(): ReadinessCheck | undefined;
  /** Whether the last append succeeded (a `sync` trail refuses calls up front while it did not: nothing served unrecorded). */
  available(): boolean;
  /** Resolves once every record queued so far is written (or the sink failed on it). */
  flush(): Promise<void>;
  /** Signs the head of the chain now (an `anchor` record; nothing without anchors), e.g. before a backup. */
  anchor(): Promise<void>;
  /** Prunes by `mcp.audit.retentionDays` now (postgres sink; undefined otherwise or with 0 days). */
  prune(): Promise<PruneResult | undefined>;
  /** Writes what is queued and the final anchor, stops the timers, closes the sink. */
  close(): Promise<void>;
}

const RESOLVED = Promise.resolve();

/** The trail of a server with `mcp.audit.sink: off`. */
export const DISABLED_AUDIT_TRAIL: AuditTrail = {
  enabled: false,
  mode: 'async',
  instance: '',
  chain: undefined,
  record: () => RESOLVED,
  readinessCheck: () => undefined,
  available: () => true,
  flush: () => RESOLVED,
  anchor: () => RESOLVED,
  prune: () => Promise.resolve(undefined),
  close: () => RESOLVED,
};

