/**
 * The hash and the line of a record: the line is the record's canonical JSON (keys sorted at every
 * depth), its hash the SHA-256 of that JSON without `hash`, whatever the key order it was built in
 * and whatever its nested values hold (a nested `instance` or `hash` key, undefined members).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { recordHash, recordLine, sealRecord } from '../../src/audit/record-hash.js';
import { wireRequestDraft } from '../../src/audit/audit-draft.js';
import { isoClock, recordBody } from '../../src/audit/audit-body.js';

const base = { v: 1, kind: 'request', ts: '2025-01-01T00:00:00.000Z', seq: 3, prevHash: '0'.repeat(64), chain: 'c', instance: 'i' } as const;

describe('sealRecord', () => {
  it('gives the hash of the canonical JSON without hash, and the canonical line with it', () => {
    const records = [
      { ...base },
      { ...base, arguments: { mode: 'masked', masked: { instance: 'x', hash: 'y', z: [1, { b: 2, a: undefined }] } }, extra: { 'a.b': null }, requestId: undefined },
      { ...base, kind: 'task', task: { id: 't', status: 'created' }, actor: { subject: 's', groups: [], scopes: [] } },
    ] as unknown as Array<Omit<AuditRecord, 'hash'>>;
    for (const unsealed of records) {
      const { record, line } = sealRecord(unsealed);
      expect(record.hash).toBe(recordHash(unsealed));
      expect(line).toBe(recordLine(record));
      expect(recordHash(JSON.parse(line) as AuditRecord)).toBe(record.hash);
    }
    const plain = `{"chain":"c","instance":"i","kind":"request","prevHash":"${'0'.repeat(64)}","seq":3,"ts":"2025-01-01T00:00:00.000Z","v":1}`;
    expect(sealRecord(records[0] as Omit<AuditRecord, 'hash'>).record.hash).toBe(createHash('sha256').update(plain).digest('hex'));
    expect(sealRecord(records[0] as Omit<AuditRecord, 'hash'>).line).toBe(
      `{"chain":"c","hash":"${recordHash(records[0] as Omit<AuditRecord, 'hash'>)}","instance":"i","kind":"request","prevHash":"${'0'.repeat(64)}","seq":3,"ts":"2025-01-01T00:00:00.000Z","v":1}`,
    );
  });

  it('gives the same line on the native path for the records the request layer builds', () => {
    const draft = wireRequestDraft(
      { method: 'tools/call', params: { name: 'pay', arguments: { to: 'x', amount: 3 } }, era: '2025', transport: 'http', remoteAddress: '::1', auth: { subject: 'ann', scopes: ['s'], groups: ['g'], claims: { iss: 'i', azp: 'app' } } } as never,
      { requestId: 'r1', durationMs: 1.5, extra: { z: 1, a: { 10: 1, 9: 2 } } },
      { error: { code: -32001, message: 'no' } } as never,
    );
    const body = recordBody(draft, { arguments: 'digest', maxExtraBytes: 4096, now: () => 0, iso: isoClock() });
    const unsealed = { ...body, instance: 'i', chain: 'c', seq: 1, prevHash: '0'.repeat(64) } as Omit<AuditRecord, 'hash'>;
    const { record, line } = sealRecord(unsealed);
    expect(line).toBe(recordLine(record));
    expect(record.hash).toBe(recordHash(JSON.parse(line) as AuditRecord));
    expect(JSON.parse(line)).toMatchObject({ principal: { subject: 'ann', clientId: 'app', issuer: 'i', authMode: 'jwt' }, outcome: { status: 'refused', code: -32001, reason: 'forbidden' } });
  });
});

