/**
 * `fa-mcp audit verify --file` on records a real trail wrote to a JSON Lines file (two chains of one
 * instance: the first closed by a shutdown, the second started after it and naming its end). Intact,
 * it exits 0 with the count and how far each chain's end is proven; each kind of tampering (a field
 * edited, a record edited and re-hashed, a line deleted, a copy or a forgery inserted, two lines
 * swapped, the first chain's tail cut, the whole chain rewritten without the key) exits 1 naming
 * the first record concerned and what happened to it.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createAuditTrail } from '../../src/audit/audit-trail.js';
import { recordHash, recordLine } from '../../src/audit/record-hash.js';
import { runCommand } from '../../src/cli/cli-io.js';
import { auditVerify, type VerifyOptions } from '../../src/cli/commands/audit.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { ANCHOR_KEY, auditConfig, draft, readRecords, recordingLogger, tempDir } from './audit-harness.js';

let dir: string;
let pristine: string;

beforeAll(async () => {
  dir = tempDir();
  pristine = join(dir, 'audit.jsonl');
  const config = auditConfig({ file: pristine, mode: 'sync', anchors: { key: ANCHOR_KEY, intervalMs: 60_000 } });
  const first = await createAuditTrail({ config, logger: recordingLogger() });
  for (let i = 0; i < 6; i++) await first.record(draft(i));
  await first.anchor();
  for (let i = 6; i < 10; i++) await first.record(draft(i));
  await first.close();
  const second = await createAuditTrail({ config, logger: recordingLogger() });
  for (let i = 10; i < 14; i++) await second.record(draft(i));
  await second.anchor();
  await second.record(draft(14));
  await second.flush();
  // the second chain is left open: its process "died" after request 14
});

/** A copy of the file with its lines changed by `edit`. */
function tampered(edit: (lines: string[]) => string[]): string {
  const file = join(dir, `t-${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(pristine, file);
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  writeFileSync(file, `${edit(lines).join('\n')}\n`);
  return file;
}

const indexOf = (lines: string[], requestId: string) => lines.findIndex((l) => (JSON.parse(l) as AuditRecord).requestId === requestId);
const rehash = (r: AuditRecord) => recordLine({ ...r, hash: recordHash(r) });

async function verify(file: string, opts: Partial<VerifyOptions> = {}, env: Record<string, string> = { MCP_AUDIT_ANCHOR_KEY: ANCHOR_KEY }) {
  const io = recordingIo(dir);
  io.env = env;
  const code = await runCommand(io, () => auditVerify(io, { file: [file], ...opts }));
  return { code, out: io.stdout, err: io.stderr };
}

describe('fa-mcp audit verify --file', () => {
  it('exits 0 with the count when intact, and says how far each chain end is proven', async () => {
    const records = readRecords(pristine);
    const chains = [...new Set(records.map((r) => r.chain))];
    expect(chains).toHaveLength(2);
    const start2 = records.find((r) => r.kind === 'chain_start' && r.chain === chains[1]);
    const end1 = records.filter((r) => r.chain === chains[0]).at(-1);
    expect(end1).toMatchObject({ kind: 'anchor', final: true });
    expect(start2?.previous).toEqual({ chain: chains[0], seq: end1?.seq, hash: end1?.hash });

    const { code, out } = await verify(pristine);
    expect(code).toBe(0);
    expect(out).toContain(`audit trail intact: ${records.length} records in 2 chains`);
    expect(out).toMatch(/signatures: 5 verified with HMAC key [0-9a-f]{16}/); // 2 starts, 2 anchors, the final one
    expect(out).toContain(`chain ${chains[0]} (instance test-instance): 13 records, seq 0-12, 2 anchors; closed by a verified final anchor`);
    expect(out).toContain(`chain ${chains[1]} (instance test-instance): 7 records, seq 0-6, 1 anchor; 1 record after the last anchor (seq 5,`);
    expect(out).toContain('are unverifiable at the tail');

    const strict = await verify(pristine, { requireClosed: true });
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('--require-closed: 1 chain not proven complete at the tail');

    const unchecked = await verify(pristine, {}, {});
    expect(unchecked.code).toBe(0);
    expect(unchecked.out).toContain('signatures: 5 not checked');
  });

  it('names a record whose field was edited', async () => {
    let at = 0;
    const file = tampered((lines) => {
      at = indexOf(lines, 'req-4');
      lines[at] = (lines[at] as string).replace('"subject":"alice"', '"subject":"mallory"');
      return lines;
    });
    const { code, out } = await verify(file);
    expect(code).toBe(1);
    expect(out).toContain(`audit trail NOT intact: edited: ${file.split('/').at(-1)}:${at + 1}`);
    expect(out).toContain('its content does not give its hash (tools/call, request req-4');
  });

  it('names a record that was edited and given a new hash', async () => {
    let at = 0;
    const file = tampered((lines) => {
      at = indexOf(lines, 'req-2');
      const r = JSON.parse(lines[at] as string) as AuditRecord;
      lines[at] = rehash({ ...r, outcome: { status: 'error', code: -32603 } });
      return lines;
    });
    const { code, out } = await verify(file);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`edited: [^ ]+:${at + 1} \\(chain [^,]+, seq 3\\): seq 3 of chain \\S+ was changed and given a new hash: seq 4 \\([^)]+:${at + 2}\\) links to a hash no record has`));
  });

  it('names a deleted record', async () => {
    const file = tampered((lines) => lines.filter((_, i) => i !== indexOf(lines, 'req-7')));
    const { code, out } = await verify(file);
    expect(code).toBe(1);
    expect(out).toMatch(/deleted: .* seq 9 of chain \S+ is missing: after \S+ comes seq 10/);
  });

  it('names an inserted copy and an inserted forgery', async () => {
    const copy = tampered((lines) => {
      const at = indexOf(lines, 'req-3');
      return [...lines.slice(0, at + 1), lines[at] as string, ...lines.slice(at + 1)];
    });
    const first = await verify(copy);
    expect(first.code).toBe(1);
    expect(first.out).toContain('inserted:');
    expect(first.out).toContain('a copy of seq 4 of chain');

    let forgedAt = 0;
    const forged = tampered((lines) => {
      const at = indexOf(lines, 'req-3');
      const r = JSON.parse(lines[at] as string) as AuditRecord;
      forgedAt = at + 1;
      // a record claiming req-3's place, linked to the same predecessor, placed after the real one
      return [...lines.slice(0, at + 1), rehash({ ...r, requestId: 'req-forged', principal: { subject: 'mallory', groups: [], scopes: [] } }), ...lines.slice(at + 1)];
    });
    const second = await verify(forged);
    expect(second.code).toBe(1);
    expect(second.out).toContain(`inserted: ${forged.split('/').at(-1)}:${forgedAt + 1}`);
    expect(second.out).toContain('a second record claims seq 4 of chain');
    expect(second.out).toContain('(request req-forged)');
  });

  it('names a reordered record', async () => {
    const file = tampered((lines) => {
      const at = indexOf(lines, 'req-5');
      [lines[at], lines[at + 1]] = [lines[at + 1] as string, lines[at] as string];
      return lines;
    });
    const { code, out } = await verify(file);
    expect(code).toBe(1);
    expect(out).toMatch(/reordered: .* seq 6 of chain \S+ comes after seq 7/);
  });

  it("detects the first chain's tail cut off, by the signed start of the next chain", async () => {
    const file = tampered((lines) => {
      const chain1 = (JSON.parse(lines[0] as string) as AuditRecord).chain;
      const own = lines.map((l, i) => [i, JSON.parse(l) as AuditRecord] as const).filter(([, r]) => r.chain === chain1);
      const cut = new Set(own.slice(-3).map(([i]) => i)); // req-8, req-9 and the final anchor
      return lines.filter((_, i) => !cut.has(i));
    });
    const { code, out } = await verify(file);
    expect(code).toBe(1);
    expect(out).toMatch(/truncated: .*: chain \S+ ends at seq 9, but chain \S+'s signed start \([^)]+\) says it reached seq 12: its last 3 records were removed/);
  });

  it('refuses anchors that do not verify: a chain rewritten without the key, or the wrong key', async () => {
    const file = tampered((lines) => {
      // change one record and re-hash everything after it, as someone without the key can
      let prev: string | undefined;
      return lines.map((l) => {
        let r = JSON.parse(l) as AuditRecord;
        if (r.requestId === 'req-1') r = { ...r, principal: { subject: 'mallory', groups: [], scopes: [] } };
        if (prev && r.seq > 0 && r.chain === (JSON.parse(lines[0] as string) as AuditRecord).chain) r = { ...r, prevHash: prev };
        const line = rehash(r);
        prev = (JSON.parse(line) as AuditRecord).hash;
        return line;
      });
    });
    const rewritten = await verify(file);
    expect(rewritten.code).toBe(1);
    expect(rewritten.out).toContain("forged:");
    expect(rewritten.out).toContain("the anchor's signature does not verify");

    const wrongKey = await verify(pristine, {}, { MCP_AUDIT_ANCHOR_KEY: 'another-key-0123456789abcdef0123456789' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/forged: .*signed by key [0-9a-f]{16} \(HS256\), not by HMAC key [0-9a-f]{16}/);
  });

  it('refuses a record line cut short, and skips the log lines of another program in the same stream', async () => {
    const cut = tampered((lines) => {
      const at = indexOf(lines, 'req-6');
      const line = lines[at] as string;
      lines[at] = line.slice(0, line.indexOf('"hash":') + 20);
      return lines;
    });
    const broken = await verify(cut);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('edited:');
    expect(broken.out).toContain('not a JSON record');

    const mixed = tampered((lines) => lines.flatMap((l, i) => (i % 4 === 0 ? ['{"level":30,"msg":"request served"}', 'plain text', l] : [l])));
    const ok = await verify(mixed);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('10 lines that are not audit records skipped');

    const hidden = tampered((lines) => {
      const at = indexOf(lines, 'req-6');
      lines[at] = '{"level":30,"msg":"nothing to see"}';
      return lines;
    });
    const gap = await verify(hidden);
    expect(gap.code).toBe(1);
    expect(gap.out).toMatch(/deleted: .*seq 8 of chain \S+ is missing/);
  });
});
