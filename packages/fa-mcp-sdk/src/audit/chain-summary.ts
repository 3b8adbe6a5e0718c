/**
 * The words of `fa-mcp audit verify`: the first problem (exit 1), or the count and, per chain, how
 * far its end is proven: closed by a signed final anchor, vouched for by the next chain of its
 * instance, or with records after its last anchor that a cut could have removed unseen.
 */
import type { ChainState } from './chain-state.js';
import type { VerifyWalk } from './chain-verify.js';

export interface VerifySummary {
  ok: boolean;
  lines: string[];
  /** Chains whose end nothing proves (no final anchor, no later chain naming it). */
  openEnded: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function tail(st: ChainState, checked: boolean): { line: string; open: boolean } {
  const head = `chain ${st.chain} (instance ${st.instance}): ${plural(st.records, 'record')}, seq ${st.firstSeq}-${st.lastSeq}${st.start === 'checkpoint' ? `, from a retention checkpoint (${plural(st.pruned?.count ?? 0, 'record')} before ${st.pruned?.before ?? '?'} pruned)` : ''}, ${plural(st.anchors, 'anchor')}`;
  if (st.closed) return { line: `${head}; closed by ${checked ? 'a verified' : 'an unchecked'} final anchor`, open: false };
  if (st.vouchedBy) return { line: `${head}; its end is confirmed by the start of chain ${st.vouchedBy}`, open: false };
  if (st.lastAnchorSeq === undefined) return { line: `${head}; no anchor: a cut tail cannot be detected (set mcp.audit.anchors.key)`, open: true };
  const after = st.lastSeq - st.lastAnchorSeq;
  if (after === 0) return { line: `${head}; ends at an anchor (${st.lastAnchorTs}) without a final one: the process stopped without a shutdown, or later records were cut off`, open: true };
  return { line: `${head}; ${plural(after, 'record')} after the last anchor (seq ${st.lastAnchorSeq}, ${st.lastAnchorTs}) are unverifiable at the tail: a cut there cannot be detected`, open: true };
}

export function summarize(walk: VerifyWalk, keyDescription: string | undefined): VerifySummary {
  if (walk.problem) {
    const p = walk.problem;
    return { ok: false, openEnded: 0, lines: [`audit trail NOT intact: ${p.kind}: ${p.ref}${p.chain ? ` (chain ${p.chain}${p.seq !== undefined ? `, seq ${p.seq}` : ''})` : ''}: ${p.message}`, `${walk.count} records read before it`] };
  }
  const checked = keyDescription !== undefined;
  const lines = [`audit trail intact: ${walk.count} records in ${walk.chains.length} chain${walk.chains.length === 1 ? '' : 's'}`];
  lines.push(checked ? `signatures: ${walk.signatures.verified} verified with ${keyDescription}` : walk.signatures.unchecked > 0 ? `signatures: ${walk.signatures.unchecked} not checked (no key: --anchor-key-file, MCP_AUDIT_ANCHOR_KEY or --public-key)` : 'signatures: none (anchors off)');
  let openEnded = 0;
  for (const st of walk.chains) {
    const t = tail(st, checked);
    if (t.open) openEnded += 1;
    lines.push(t.line);
  }
  return { ok: true, lines, openEnded };
}
