/**
 * The bytes of a record that are hashed and signed: its compact canonical JSON (core/canonical-json.ts)
 * without `hash` (the hash), and without `hash` and the signature's value (the signature). The same
 * functions serve the writer and `fa-mcp audit verify`, so the two cannot disagree.
 */
import { createHash, hash as oneShotHash } from 'node:crypto';
import { compactCanonicalJson, stringifiesCanonically } from '../core/canonical-json.js';
import type { AuditRecord } from './audit-record.js';

/** SHA-256 (hex) of a UTF-8 string. */
export function sha256Hex(text: string): string {
  // crypto.hash (Node 20.12+) is the one-shot form: half the cost of a Hash object on a record-sized input.
  return typeof oneShotHash === 'function' ? oneShotHash('sha256', text, 'hex') : createHash('sha256').update(text, 'utf8').digest('hex');
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
  // The members sorting before `hash` and those after it, in the order of the record's known
  // members (the line is the record: a member not in the list is not stored).
  const members = unsealed as Record<string, unknown>;
  const low: Record<string, unknown> = {};
  const high: Record<string, unknown> = {};
  for (let i = 0; i < RECORD_MEMBERS.length; i++) {
    const name: string = RECORD_MEMBERS[i] as string;
    const value = members[name];
    if (value !== undefined) (i < HASH_AT ? low : high)[name] = value;
  }
  // The native serializer where it gives canonical JSON already (the records the request layer
  // builds), else member by member.
  const native = stringifiesCanonically(low) && stringifiesCanonically(high);
  const head = native ? JSON.stringify(low).slice(1, -1) : canonicalMembers(low);
  const tail = native ? JSON.stringify(high).slice(1, -1) : canonicalMembers(high);
  const hash = sha256Hex(`{${head}${head !== '' && tail !== '' ? ',' : ''}${tail}}`);
  const record = unsealed as AuditRecord;
  record.hash = hash;
  return { record, line: `{${head}${head !== '' ? ',' : ''}"hash":"${hash}"${tail !== '' ? ',' : ''}${tail}}` };
}

/** The members of an object in canonical order, without its braces. */
function canonicalMembers(members: Record<string, unknown>): string {
  const text = compactCanonicalJson(members);
  return text.slice(1, -1);
}

/** Every member of a record but `hash`, in canonical (UTF-16) order; `hash` belongs at HASH_AT. */
export const RECORD_MEMBERS = [
  'actor', 'arguments', 'chain', 'dropped', 'durationMs', 'era', 'extra', 'final',
  // hash
  'instance', 'kind', 'method', 'outcome', 'prevHash', 'previous', 'principal', 'pruned', 'remoteAddress', 'requestId', 'resultBytes',
  'seq', 'sessionId', 'sig', 'spanId', 'target', 'task', 'traceId', 'transport', 'ts', 'v',
] as const satisfies readonly (keyof AuditRecord)[];
const HASH_AT = RECORD_MEMBERS.indexOf('instance');
/** A member added to AuditRecord and not to RECORD_MEMBERS fails to compile here. */
type Unlisted = Exclude<keyof AuditRecord, (typeof RECORD_MEMBERS)[number] | 'hash'>;
export const RECORD_MEMBERS_COMPLETE: [Unlisted] extends [never] ? true : never = true;
