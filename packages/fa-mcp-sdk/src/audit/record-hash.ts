/**
 * The bytes of a record that are hashed and signed: its compact canonical JSON (core/canonical-json.ts)
 * without `hash` (the hash), and without `hash` and the signature's value (the signature). The same
 * functions serve the writer and `fa-mcp audit verify`, so the two cannot disagree.
 */
import { createHash } from 'node:crypto';
import { compactCanonicalJson, sortKeys } from '../core/canonical-json.js';
import type { AuditRecord } from './audit-record.js';

/** SHA-256 (hex) of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash a record must carry: SHA-256 of its canonical JSON without `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _hash, ...rest } = record;
  return sha256Hex(compactCanonicalJson(rest));
}

/**
 * What a signature covers: the record without `sig.value` (alg and key id are covered) and without
 * `hash`, except in a checkpoint, whose `hash` is the pruned record's it stands for, and signed.
 */
export function signingText(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash, sig, ...rest } = record;
  const covered = record.kind === 'checkpoint' ? { ...rest, hash } : rest;
  return compactCanonicalJson(sig ? { ...covered, sig: { alg: sig.alg, keyId: sig.keyId } } : covered);
}

/** Signs a record (anchors, chain starts, checkpoints): the record with its `sig`. */
export function signRecord<T extends Omit<AuditRecord, 'hash'> & { hash?: string }>(record: T, signer: { alg: string; keyId: string; sign(text: string): string }): T {
  const sig = { alg: signer.alg, keyId: signer.keyId };
  return { ...record, sig: { ...sig, value: signer.sign(signingText({ ...record, sig: { ...sig, value: '' } })) } };
}

/** One stored line of a record (JSON Lines, the PostgreSQL `body`): canonical, so it is also what was hashed plus `hash`. */
export function recordLine(record: AuditRecord): string {
  return compactCanonicalJson(record);
}

/**
 * The record with its hash, and its line, from one canonical serialization: the hash covers the
 * top-level members without `hash`, and the line is the same members with `hash` in its sorted
 * place (what `recordLine` would give, at half the cost: this runs once per record). The given
 * object becomes the record (its `hash` is set).
 */
export function sealRecord(unsealed: Omit<AuditRecord, 'hash'>): { record: AuditRecord; line: string } {
  // The members sorting before `hash` and those after it, each serialized by the native JSON.stringify.
  const low: Record<string, unknown> = {};
  const high: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(unsealed)) {
    if (key < 'hash') low[key] = value;
    else if (key > 'hash') high[key] = value;
  }
  const head = JSON.stringify(sortKeys(low)).slice(0, -1); // `{…` without its `}`
  const tail = JSON.stringify(sortKeys(high)).slice(1); // `…}` without its `{`
  const join = head.length > 1 && tail.length > 1 ? ',' : '';
  const hash = sha256Hex(`${head}${join}${tail}`);
  const record = unsealed as AuditRecord;
  record.hash = hash;
  return { record, line: `${head}${head.length > 1 ? ',' : ''}"hash":"${hash}"${tail.length > 1 ? ',' : ''}${tail}` };
}
