/**
 * Walks stored audit records in the order they were stored (file lines, table ids) and proves each
 * chain whole, or names the first record that breaks it and how:
 *
 * - edited: a record's content no longer gives its hash (or a table column disagrees with it); or
 *   a record was changed and re-hashed, so the next record links to a hash no record has;
 * - deleted: a seq is missing and never comes, or a chain's beginning is missing;
 * - inserted: a second record claims a seq (the one its successor does not link to), or a record
 *   follows the chain's final anchor;
 * - reordered: a record comes after records with a higher seq of its chain;
 * - truncated: a chain ends before the head that the next chain of its instance recorded at its start;
 * - forged: a signature (anchor, chain start, checkpoint) does not verify with the given key.
 *
 * What it cannot prove is said too (chain-summary.ts): records after a chain's last anchor, when
 * no final anchor and no later chain vouches for its end, could have been cut off unseen.
 */
import type { AnchorVerifier } from './anchor-signer.js';
import { AUDIT_RECORD_VERSION, GENESIS_HASH, SIGNED_KINDS, type AuditRecord } from './audit-record.js';
import { ChainState, type ChainLink } from './chain-state.js';
import { columnMismatch, type StoredRecord } from './stored-record.js';
import { recordHash, signingText } from './record-hash.js';

export type VerifyProblemKind = 'edited' | 'deleted' | 'inserted' | 'reordered' | 'truncated' | 'forged';

export interface VerifyProblem {
  kind: VerifyProblemKind;
  /** Where: `file.jsonl:57`, `id 1234`. */
  ref: string;
  chain?: string;
  seq?: number;
  message: string;
}

export interface VerifyOptions {
  /** Checks signatures; without it they are not checked (and the report says so). */
  verifier?: AnchorVerifier;
}

/** The outcome of a walk: the first problem, or every chain's state for the summary. */
export interface VerifyWalk {
  count: number;
  chains: ChainState[];
  links: ChainLink[];
  problem?: VerifyProblem;
  signatures: { verified: number; unchecked: number };
}

const HEX64 = /^[0-9a-f]{64}$/;

function shapeError(r: Partial<AuditRecord>): string | undefined {
  if (r.v !== AUDIT_RECORD_VERSION) return `unknown record version ${JSON.stringify(r.v)}`;
  if (typeof r.kind !== 'string' || typeof r.chain !== 'string' || typeof r.instance !== 'string' || typeof r.ts !== 'string') return 'a field of every record is missing';
  if (!Number.isInteger(r.seq) || (r.seq as number) < 0) return 'seq is not a whole number';
  if (typeof r.prevHash !== 'string' || !HEX64.test(r.prevHash) || typeof r.hash !== 'string' || !HEX64.test(r.hash)) return 'prevHash or hash is not a SHA-256';
  return undefined;
}

class Walker {
  readonly chains = new Map<string, ChainState>();
  readonly links: ChainLink[] = [];
  count = 0;
  readonly signatures = { verified: 0, unchecked: 0 };

  constructor(private readonly opts: VerifyOptions) {}

  /** Checks one record; a problem ends the walk. */
  take(stored: StoredRecord): VerifyProblem | undefined {
    const { ref } = stored;
    let r: AuditRecord;
    try {
      r = JSON.parse(stored.text) as AuditRecord;
    } catch {
      return { kind: 'edited', ref, message: 'not a JSON record (the line was changed or cut)' };
    }
    if (!r || typeof r !== 'object') return { kind: 'edited', ref, message: 'not a JSON record' };
    const shape = shapeError(r);
    const at = { ref, chain: r.chain, seq: r.seq };
    if (shape) return { kind: 'edited', ...at, message: shape };
    if (r.kind !== 'checkpoint' && recordHash(r) !== r.hash) return { kind: 'edited', ...at, message: `its content does not give its hash${describe(r)}` };
    const column = stored.columns ? columnMismatch(stored.columns, r) : undefined;
    if (column) return { kind: 'edited', ...at, message: `${column}${describe(r)}` };
    const forged = this.checkSignature(r, ref);
    if (forged) return forged;
    this.count += 1;
    return r.kind === 'checkpoint' ? this.checkpoint(r, ref) : this.link(r, ref);
  }

  private checkSignature(r: AuditRecord, ref: string): VerifyProblem | undefined {
    if (!SIGNED_KINDS.has(r.kind)) return undefined;
    const at = { ref, chain: r.chain, seq: r.seq };
    if (!r.sig) {
      if (r.kind === 'anchor' || (r.kind === 'checkpoint' && this.opts.verifier)) return { kind: 'forged', ...at, message: `an unsigned ${r.kind}: it cannot vouch for the records before it` };
      return undefined;
    }
    if (!this.opts.verifier) {
      this.signatures.unchecked += 1;
      return undefined;
    }
    const ok = this.opts.verifier.verify(r.sig, signingText(r));
    if (ok === undefined) return { kind: 'forged', ...at, message: `signed by key ${r.sig.keyId} (${r.sig.alg}), not by ${this.opts.verifier.description}` };
    if (!ok) return { kind: 'forged', ...at, message: `the ${r.kind}'s signature does not verify: it or the records it vouches for were rewritten` };
    this.signatures.verified += 1;
    return undefined;
  }

  private checkpoint(r: AuditRecord, ref: string): VerifyProblem | undefined {
    if (this.chains.has(r.chain)) return { kind: 'inserted', ref, chain: r.chain, seq: r.seq, message: 'a retention checkpoint after records of its chain' };
    this.chains.set(r.chain, ChainState.fromCheckpoint(r, ref));
    return undefined;
  }

  private link(r: AuditRecord, ref: string): VerifyProblem | undefined {
    const at = { ref, chain: r.chain, seq: r.seq };
    let st = this.chains.get(r.chain);
    if (!st) {
      if (r.kind !== 'chain_start' || r.seq !== 0) {
        return { kind: 'deleted', ...at, message: `chain ${r.chain} (instance ${r.instance}) begins at seq ${r.seq}: its records before it, from its chain_start, are missing (if older files were rotated away, pass them too, oldest first)` };
      }
      const expected = r.previous?.hash ?? GENESIS_HASH;
      if (r.prevHash !== expected) return { kind: 'edited', ...at, message: 'the chain start does not link to the head it names' };
      st = ChainState.fromStart(r, ref);
      this.chains.set(r.chain, st);
      if (r.previous) this.links.push({ from: r.chain, ref, instance: r.instance, signed: r.sig !== undefined && this.opts.verifier !== undefined, to: r.previous });
      return undefined;
    }
    const fork = st.resolveFork(r);
    if (fork) return { kind: 'inserted', ref: fork.ref, chain: r.chain, seq: fork.seq, message: `a second record claims seq ${fork.seq} of chain ${r.chain}; the next record links to the other one${fork.requestId ? ` (request ${fork.requestId})` : ''}` };
    if (r.seq < st.expected) {
      if (st.hashAt(r.seq) === r.hash) return { kind: 'inserted', ...at, message: `a copy of seq ${r.seq} of chain ${r.chain}${describe(r)}` };
      if (r.seq === st.expected - 1 && st.hashAt(r.seq - 1) === r.prevHash) {
        st.openFork(r, ref);
        return undefined;
      }
      return { kind: 'inserted', ...at, message: `seq ${r.seq} of chain ${r.chain} was already held by another record${describe(r)}` };
    }
    if (r.seq > st.expected) return st.stash(r, ref);
    if (st.hasStash()) {
      const later = st.firstStashed();
      return { kind: 'reordered', ...at, message: `seq ${r.seq} of chain ${r.chain} comes after seq ${later.seq} (${later.ref})${describe(r)}` };
    }
    if (r.prevHash !== st.lastHash) {
      return { kind: 'edited', ref: st.lastRef, chain: r.chain, seq: r.seq - 1, message: `seq ${r.seq - 1} of chain ${r.chain} was changed and given a new hash: seq ${r.seq} (${ref}) links to a hash no record has (or seq ${r.seq} is not the record that followed it)` };
    }
    if (st.closed) return { kind: 'inserted', ...at, message: `a record after the final anchor of chain ${r.chain}${describe(r)}` };
    st.advance(r, ref);
    return undefined;
  }

  /** What only the end of the input shows: a seq that never came, a fork nobody resolved, a chain cut before the head its successor named. */
  finish(): VerifyProblem | undefined {
    for (const st of this.chains.values()) {
      const fork = st.unresolvedFork();
      if (fork) return { kind: 'inserted', ref: fork.ref, chain: st.chain, seq: fork.seq, message: `a second record claims seq ${fork.seq}, the last of chain ${st.chain}` };
      if (st.hasStash()) {
        const later = st.firstStashed();
        return { kind: 'deleted', ref: later.ref, chain: st.chain, seq: st.expected, message: `seq ${st.expected} of chain ${st.chain} is missing: after ${st.lastRef} comes seq ${later.seq} (${later.ref})` };
      }
    }
    for (const link of this.links) {
      const prev = this.chains.get(link.to.chain);
      const by = `chain ${link.from}'s ${link.signed ? 'signed ' : ''}start (${link.ref})`;
      if (!prev) return { kind: 'deleted', ref: link.ref, chain: link.to.chain, message: `chain ${link.to.chain}, which ${by} names as the instance's previous one, is missing` };
      if (prev.lastSeq < link.to.seq) {
        return { kind: 'truncated', ref: prev.lastRef, chain: prev.chain, seq: prev.lastSeq, message: `chain ${prev.chain} ends at seq ${prev.lastSeq}, but ${by} says it reached seq ${link.to.seq}: its last ${link.to.seq - prev.lastSeq} records were removed` };
      }
      const hash = prev.hashAt(link.to.seq);
      if (hash !== undefined && hash !== link.to.hash) {
        return { kind: 'edited', ref: prev.lastRef, chain: prev.chain, seq: link.to.seq, message: `seq ${link.to.seq} of chain ${prev.chain} is not the record ${by} names as its end` };
      }
      prev.vouchedBy = link.from;
    }
    return undefined;
  }
}

function describe(r: AuditRecord): string {
  const what = [r.kind !== 'request' ? r.kind : undefined, r.method ?? undefined, r.requestId ? `request ${r.requestId}` : undefined, r.ts].filter(Boolean);
  return what.length ? ` (${what.join(', ')})` : '';
}

/** Walks the records; stops at the first problem. */
export async function verifyRecords(records: AsyncIterable<StoredRecord>, opts: VerifyOptions = {}): Promise<VerifyWalk> {
  const walker = new Walker(opts);
  let problem: VerifyProblem | undefined;
  for await (const stored of records) {
    problem = walker.take(stored);
    if (problem) break;
  }
  problem ??= walker.finish();
  return { count: walker.count, chains: [...walker.chains.values()], links: walker.links, signatures: walker.signatures, ...(problem ? { problem } : {}) };
}
