/**
 * What verification knows of one chain while it walks the records: the seq it expects next, the
 * hash that record must link to, the recent hashes (to tell a copy or a fork), records that came
 * early (a reorder, or a deletion when their predecessor never comes), anchors and the chain's end.
 */
import type { AuditRecord } from './audit-record.js';

/** A chain start that names the instance's previous chain. */
export interface ChainLink {
  from: string;
  ref: string;
  instance: string;
  /** The start's signature was checked. */
  signed: boolean;
  to: { chain: string; seq: number; hash: string };
}

interface Seen {
  seq: number;
  ref: string;
  hash: string;
  requestId?: string;
}

/** Recent hashes kept per chain (a fork or a link is decided within them). */
const RING = 4096;
/** Records that came early, kept while waiting for their predecessor; more means it is missing. */
const MAX_STASH = 10_000;

export class ChainState {
  expected: number;
  lastHash: string;
  lastSeq: number;
  lastRef: string;
  records = 1;
  anchors = 0;
  lastAnchorSeq: number | undefined;
  lastAnchorTs: string | undefined;
  closed = false;
  lastTs: string;
  /** The chain whose start names this chain's end as its predecessor. */
  vouchedBy: string | undefined;
  private readonly ring = new Map<number, string>();
  private readonly early = new Map<number, Seen>();
  private fork: { first: Seen; second: Seen } | undefined;

  private constructor(
    readonly chain: string,
    readonly instance: string,
    readonly firstSeq: number,
    readonly start: 'genesis' | 'previous' | 'checkpoint',
    readonly pruned: AuditRecord['pruned'],
    first: AuditRecord,
    ref: string,
  ) {
    this.expected = first.seq + 1;
    this.lastHash = first.hash;
    this.lastSeq = first.seq;
    this.lastRef = ref;
    this.lastTs = first.ts;
    this.ring.set(first.seq, first.hash);
    if (first.sig) {
      this.lastAnchorSeq = first.seq;
      this.lastAnchorTs = first.ts;
    }
  }

  static fromStart(r: AuditRecord, ref: string): ChainState {
    return new ChainState(r.chain, r.instance, 0, r.previous ? 'previous' : 'genesis', undefined, r, ref);
  }

  static fromCheckpoint(r: AuditRecord, ref: string): ChainState {
    return new ChainState(r.chain, r.instance, r.seq, 'checkpoint', r.pruned, r, ref);
  }

  hashAt(seq: number): string | undefined {
    return this.ring.get(seq);
  }

  advance(r: AuditRecord, ref: string): void {
    this.expected = r.seq + 1;
    this.lastHash = r.hash;
    this.lastSeq = r.seq;
    this.lastRef = ref;
    this.lastTs = r.ts;
    this.records += 1;
    this.ring.set(r.seq, r.hash);
    if (this.ring.size > RING) this.ring.delete(r.seq - RING);
    if (r.kind === 'anchor') {
      this.anchors += 1;
      this.lastAnchorSeq = r.seq;
      this.lastAnchorTs = r.ts;
      this.closed = r.final === true;
    }
  }

  /** A record with a seq beyond the expected one: kept until the expected one comes (a reorder) or never does (a deletion). */
  stash(r: AuditRecord, ref: string): { kind: 'deleted'; ref: string; chain: string; seq: number; message: string } | undefined {
    if (!this.early.has(r.seq)) this.early.set(r.seq, { seq: r.seq, ref, hash: r.hash });
    if (this.early.size <= MAX_STASH) return undefined;
    const later = this.firstStashed();
    return { kind: 'deleted', ref: later.ref, chain: this.chain, seq: this.expected, message: `seq ${this.expected} of chain ${this.chain} is missing: after ${this.lastRef} come ${MAX_STASH} later records without it` };
  }

  hasStash(): boolean {
    return this.early.size > 0;
  }

  /** The stashed record with the lowest seq. */
  firstStashed(): Seen {
    let first: Seen | undefined;
    for (const s of this.early.values()) if (!first || s.seq < first.seq) first = s;
    return first as Seen;
  }

  /** A second record for the last seq, linking like the first: which one was inserted shows with the next record. */
  openFork(r: AuditRecord, ref: string): void {
    this.fork = { first: { seq: r.seq, ref: this.lastRef, hash: this.lastHash }, second: { seq: r.seq, ref, hash: r.hash, ...(r.requestId ? { requestId: r.requestId } : {}) } };
  }

  /** With a fork open, the record after it names the inserted one: the one it does not link to. */
  resolveFork(r: AuditRecord): Seen | undefined {
    const fork = this.fork;
    if (!fork || r.seq !== fork.first.seq + 1) return undefined;
    return r.prevHash === fork.second.hash ? fork.first : fork.second;
  }

  unresolvedFork(): Seen | undefined {
    return this.fork?.second;
  }
}
