/**
 * The writer of one chain: a bounded queue of record bodies, written to the sink one batch at a
 * time in the order they were recorded; each record gets its place in the chain (seq, prevHash,
 * hash) when its batch is written, so a record that never reaches the sink leaves no hole.
 *
 * - sync: `record()` resolves once the record's batch is durable and rejects (-32006) when it
 *   cannot be written; the record is then queued again as the failed request it became (the
 *   client was refused), retried in the background. Records arriving while a batch is being
 *   written form the next batch (group commit): one fsync or INSERT for many requests.
 * - async: `record()` resolves at once; a batch is written when `batchSize` records wait or
 *   `windowMs` after the first of them. A full queue drops new records, and a failing sink keeps
 *   its batch for another try (with backoff) until the queue overflows: drops are counted
 *   (mcp_audit_dropped_total), logged once per window, and noted in the chain by a `dropped` record.
 * - With a signer, an `anchor` record signs the head at intervals (when records came since the
 *   last one) and once more, `final`, at close; the chain start is signed too.
 */
import { randomUUID } from 'node:crypto';
import type { AuditMode } from '../config/sections/audit.js';
import { UpstreamUnavailableError } from '../core/errors.js';
import type { CoreLogger } from '../core/logger-types.js';
import type { AnchorSigner } from './anchor-signer.js';
import { failedBody } from './audit-body.js';
import type { AuditDropReason, AuditMetrics } from './audit-metrics.js';
import { AUDIT_RECORD_VERSION, GENESIS_HASH, SIGNED_KINDS, type AuditRecord, type AuditRecordBody } from './audit-record.js';
import type { AuditSink } from './audit-sink.js';
import type { AuditMirror } from './otel-mirror.js';
import { sealRecord, signRecord } from './record-hash.js';

export interface WriterOptions {
  sink: AuditSink;
  mode: AuditMode;
  instance: string;
  queueSize: number;
  batchSize: number;
  windowMs: number;
  anchorIntervalMs: number;
  signer?: AnchorSigner;
  mirror?: AuditMirror;
  metrics?: AuditMetrics;
  logger: CoreLogger;
  now?: () => number;
  /** The chain's id; default a random UUID. */
  chain?: string;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

interface Item {
  body: AuditRecordBody;
  waiter?: Waiter;
}

const RESOLVED = Promise.resolve();
const MAX_BACKOFF_MS = 5000;

/** What a sync-mode request gets when its record cannot be written: -32006, HTTP 503. */
export function auditUnavailable(cause?: unknown): UpstreamUnavailableError {
  const err = new UpstreamUnavailableError('The audit trail cannot record this request', { reason: 'audit_unavailable' });
  if (cause !== undefined) Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}

export class AuditWriter {
  readonly chain: string;
  private readonly now: () => number;
  private queue: Item[] = [];
  /** seq of the next record, and the hash it links to. */
  private seq = 0;
  private head = GENESIS_HASH;
  private lastAnchorSeq = -1;
  private anchorWanted = false;
  private writing: Promise<void> | undefined;
  private windowTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private anchorTimer: NodeJS.Timeout | undefined;
  private backoffMs = 0;
  /** The retry timer of a failing sink fired: the next loop tries even without a waiting request. */
  private retryDue = false;
  private failure: Error | undefined;
  private closed = false;
  /** Drops not yet noted in the chain. */
  private unnoted: { count: number; reasons: Record<string, number>; from: number; to: number } | undefined;
  /** Drops not yet logged, and the timer that logs them once per window. */
  private unlogged: Record<string, number> = {};
  private dropLogTimer: NodeJS.Timeout | undefined;
  private lastFailureLog = 0;

  constructor(private readonly opts: WriterOptions) {
    this.chain = opts.chain ?? randomUUID();
    this.now = opts.now ?? Date.now;
  }

  /** Records waiting to be written. */
  get depth(): number {
    return this.queue.length;
  }

  /** The last failure of the sink, until a batch is written again. */
  get failing(): Error | undefined {
    return this.failure;
  }

  /** Writes the chain's first record (durably, whatever the mode): the start fails when the sink cannot take it. */
  async start(): Promise<void> {
    const previous = await this.opts.sink.lastHead(this.opts.instance);
    const body: AuditRecordBody = { v: AUDIT_RECORD_VERSION, kind: 'chain_start', ts: new Date(this.now()).toISOString(), ...(previous ? { previous } : {}) };
    if (previous) this.head = previous.hash;
    await this.writeBatch([{ body }], true);
    if (this.opts.signer) {
      this.lastAnchorSeq = 0; // the start is signed
      this.anchorTimer = setInterval(() => this.wantAnchor(), this.opts.anchorIntervalMs);
      this.anchorTimer.unref();
    }
  }

  record(body: AuditRecordBody): Promise<void> {
    const sync = this.opts.mode === 'sync';
    if (this.closed) {
      this.drop('closed', 1);
      return sync ? Promise.reject(auditUnavailable()) : RESOLVED;
    }
    if (this.queue.length >= this.opts.queueSize) {
      this.drop('queue_full', 1);
      return sync ? Promise.reject(auditUnavailable(new Error('the audit queue is full'))) : RESOLVED;
    }
    if (!sync) {
      this.queue.push({ body });
      if (this.queue.length >= this.opts.batchSize) this.kick();
      else this.armWindow();
      return RESOLVED;
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ body, waiter: { resolve, reject } });
      this.kick();
    });
  }

  /** Resolves once everything queued so far was written, or the sink failed on it. */
  async flush(): Promise<void> {
    while (this.writing || (this.queue.length > 0 && !this.failure)) {
      this.kick();
      await this.writing;
    }
  }

  /** Writes an anchor now (with a signer), after what is queued; resolves once it is written or the sink failed. */
  async anchor(): Promise<void> {
    if (!this.opts.signer || this.closed) return;
    this.anchorWanted = true;
    this.kick();
    await this.flush();
  }

  /** Writes what is queued (one try when the sink is failing), then the final anchor; later records are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of [this.windowTimer, this.retryTimer, this.anchorTimer]) if (timer) clearTimeout(timer);
    clearInterval(this.anchorTimer);
    this.failure = undefined;
    await this.flush();
    if (this.queue.length > 0) {
      this.drop('closed', this.queue.length);
      for (const item of this.queue) item.waiter?.reject(auditUnavailable());
      this.queue = [];
    }
    if (this.opts.signer && !this.failure) {
      await this.writeBatch([], true, true).catch((err: unknown) => this.opts.logger.warn({ err: (err as Error).message }, 'audit: the final anchor could not be written'));
    }
    this.logDrops();
    await this.opts.sink.close();
  }

  /** A request waits for its record (sync mode only: async records have no waiter). */
  private waiting(): boolean {
    return this.opts.mode === 'sync' && this.queue.some((i) => i.waiter);
  }

  private wantAnchor(): void {
    if (this.seq - 1 > this.lastAnchorSeq) {
      this.anchorWanted = true;
      this.kick();
    }
  }

  private armWindow(): void {
    if (this.windowTimer || this.writing) return;
    this.windowTimer = setTimeout(() => {
      this.windowTimer = undefined;
      this.kick();
    }, this.opts.windowMs);
    this.windowTimer.unref();
  }

  /** Starts the write loop unless it runs (or waits for a retry of best-effort records only). */
  private kick(): void {
    if (this.writing) return;
    this.writing = new Promise<void>((done) => setImmediate(done)).then(() => this.loop()).finally(() => {
      this.writing = undefined;
      // What came after the loop's last look (its waiters resumed before this ran): a waiting request
      // or anchor goes at once; async records wait for their window.
      if (this.waiting() || (this.anchorWanted && !this.failure)) this.kick();
      else if (this.queue.length > 0 && !this.failure && !this.closed && this.opts.mode === 'async') this.armWindow();
    });
  }

  private async loop(): Promise<void> {
    if (this.windowTimer) {
      clearTimeout(this.windowTimer);
      this.windowTimer = undefined;
    }
    while (this.queue.length > 0 || this.anchorWanted) {
      // a failing sink is retried by its timer, unless a sync request waits (it tries at once)
      if (this.failure && !this.retryDue && !this.waiting()) return;
      const batch = this.queue.splice(0, this.opts.batchSize);
      try {
        await this.writeBatch(batch, this.opts.mode === 'sync');
      } catch (err) {
        this.failed(batch, err as Error);
        return;
      }
      for (const item of batch) item.waiter?.resolve();
      if (this.opts.mode === 'async' && this.queue.length < this.opts.batchSize && !this.closed && !this.anchorWanted) return;
    }
  }

  /** A batch the sink refused: its waiters fail, its records go back to the front of the queue for a later try. */
  private failed(batch: Item[], err: Error): void {
    this.opts.metrics?.failed();
    this.failure = err;
    const again: Item[] = batch.map((item) => ({ body: item.waiter ? failedBody(item.body) : item.body }));
    for (const item of batch) item.waiter?.reject(auditUnavailable(err));
    const room = Math.max(0, this.opts.queueSize - this.queue.length);
    if (again.length > room) this.drop('sink_error', again.length - room);
    this.queue = [...again.slice(0, room), ...this.queue];
    if (this.now() - this.lastFailureLog >= this.opts.windowMs) {
      this.lastFailureLog = this.now();
      this.opts.logger.error({ err: err.message, sink: this.opts.sink.name, queued: this.queue.length }, 'audit: records could not be written');
    }
    this.backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(this.opts.windowMs, this.backoffMs * 2));
    this.retryDue = false;
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.retryDue = true;
      this.kick();
    }, this.backoffMs);
    this.retryTimer.unref();
  }

  /** Gives the bodies their places in the chain, appends them (and a drop note, an anchor when due); the chain advances only once the sink has them. */
  private async writeBatch(batch: Item[], durable: boolean, final = false): Promise<void> {
    const bodies: AuditRecordBody[] = [];
    const noted = this.unnoted;
    this.unnoted = undefined;
    if (noted) bodies.push({ v: AUDIT_RECORD_VERSION, kind: 'dropped', ts: new Date(this.now()).toISOString(), dropped: { count: noted.count, reasons: { ...noted.reasons }, from: new Date(noted.from).toISOString(), to: new Date(noted.to).toISOString() } });
    for (const item of batch) bodies.push(item.body);
    const anchor = this.opts.signer !== undefined && (final || this.anchorWanted);
    if (anchor) bodies.push({ v: AUDIT_RECORD_VERSION, kind: 'anchor', ts: new Date(this.now()).toISOString(), ...(final ? { final: true } : {}) });
    if (bodies.length === 0) return;
    let seq = this.seq;
    let head = this.head;
    const records: AuditRecord[] = [];
    const lines: string[] = [];
    for (const body of bodies) {
      const { record, line } = this.place(body, seq++, head);
      head = record.hash;
      records.push(record);
      lines.push(line);
    }
    try {
      await this.opts.sink.append(records, lines, durable || final || records[0]?.kind === 'chain_start');
    } catch (err) {
      if (noted) this.renote(noted);
      throw err;
    }
    this.seq = seq;
    this.head = head;
    if (anchor) {
      this.anchorWanted = false;
      this.lastAnchorSeq = seq - 1;
    }
    this.failure = undefined;
    this.retryDue = false;
    this.backoffMs = 0;
    this.opts.metrics?.written(records.length);
    this.opts.mirror?.emit(records, lines);
  }

  /** The body becomes the record (its place set on it, not copied: this runs once per record); a retried body gets its place again. */
  private place(body: AuditRecordBody, seq: number, prevHash: string): { record: AuditRecord; line: string } {
    const unsigned = body as Omit<AuditRecord, 'hash'>;
    unsigned.instance = this.opts.instance;
    unsigned.chain = this.chain;
    unsigned.seq = seq;
    unsigned.prevHash = prevHash;
    const signer = this.opts.signer;
    return sealRecord(signer && SIGNED_KINDS.has(body.kind) ? signRecord(unsigned, signer) : unsigned);
  }

  private drop(reason: AuditDropReason, n: number): void {
    if (n <= 0) return;
    this.opts.metrics?.dropped(reason, n);
    const at = this.now();
    const noted = (this.unnoted ??= { count: 0, reasons: {}, from: at, to: at });
    noted.count += n;
    noted.reasons[reason] = (noted.reasons[reason] ?? 0) + n;
    noted.to = at;
    this.unlogged[reason] = (this.unlogged[reason] ?? 0) + n;
    if (this.dropLogTimer) return;
    this.dropLogTimer = setTimeout(() => this.logDrops(), this.opts.windowMs);
    this.dropLogTimer.unref();
  }

  /** A drop note whose batch failed goes back before the drops noted since. */
  private renote(noted: NonNullable<AuditWriter['unnoted']>): void {
    const later = this.unnoted;
    if (later) {
      noted.count += later.count;
      for (const [reason, n] of Object.entries(later.reasons)) noted.reasons[reason] = (noted.reasons[reason] ?? 0) + n;
      noted.to = later.to;
    }
    this.unnoted = noted;
  }

  private logDrops(): void {
    if (this.dropLogTimer) clearTimeout(this.dropLogTimer);
    this.dropLogTimer = undefined;
    const dropped = this.unlogged;
    this.unlogged = {};
    const total = Object.values(dropped).reduce((a, b) => a + b, 0);
    if (total > 0) this.opts.logger.warn({ dropped, total, sink: this.opts.sink.name }, 'audit: records dropped');
  }
}
