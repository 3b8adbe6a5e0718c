/**
 * `fa-mcp audit query --file`: records of JSON Lines files filtered by principal, method, target,
 * outcome, kind and time range, newest first, as JSON or a table; bad options exit 2 with a hint;
 * and without --file or --db the command reads where the project's configuration writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createAuditTrail } from '../../src/audit/audit-trail.js';
import { runCommand } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/program.js';
import { auditQuery, auditVerify, parseTime, type QueryOptions } from '../../src/cli/commands/audit.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { auditConfig, draft, recordingLogger, tempDir } from './audit-harness.js';

let dir: string;
let file: string;
const start = Date.parse('2025-03-01T10:00:00Z');

beforeAll(async () => {
  dir = tempDir();
  file = join(dir, 'logs', 'audit.jsonl');
  let clock = start;
  const trail = await createAuditTrail({ config: auditConfig({ file, mode: 'sync' }), logger: recordingLogger(), now: () => clock });
  for (let i = 0; i < 8; i++) {
    clock = start + i * 60_000;
    await trail.record(draft(i, { durationMs: 0, method: i === 7 ? 'resources/read' : 'tools/call', ...(i === 7 ? { target: { kind: 'resource', name: 'doc://a' } } : {}), outcome: i === 5 ? { status: 'refused', code: -32001, reason: 'forbidden' } : { status: 'ok' } }));
  }
  await trail.record({ kind: 'task', task: { id: 'task-1', status: 'cancelled', tool: 'get_sum' }, actor: { subject: 'carol', groups: [], scopes: [] }, requestId: 'req-cancel' });
  await trail.close();
});

async function run(opts: Partial<QueryOptions>) {
  const io = recordingIo(dir);
  const code = await runCommand(io, () => auditQuery(io, { file: [file], ...opts }));
  return { code, out: io.stdout, err: io.stderr };
}

const ids = async (opts: Partial<QueryOptions>) => (JSON.parse((await run({ ...opts, json: true })).out) as AuditRecord[]).map((r) => r.requestId);

describe('fa-mcp audit query --file', () => {
  it('filters and orders newest first', async () => {
    expect(await ids({})).toEqual(['req-cancel', 'req-7', 'req-6', 'req-5', 'req-4', 'req-3', 'req-2', 'req-1', 'req-0']);
    expect(await ids({ subject: 'bob', method: 'tools/call' })).toEqual(['req-5', 'req-3', 'req-1']);
    expect(await ids({ outcome: 'refused' })).toEqual(['req-5']);
    expect(await ids({ target: 'doc://a' })).toEqual(['req-7']);
    expect(await ids({ subject: 'carol' })).toEqual(['req-cancel']);
    expect(await ids({ target: 'task-1', outcome: 'cancelled' })).toEqual(['req-cancel']);
    expect(await ids({ from: '2025-03-01T10:02:00Z', to: '2025-03-01T10:04:00Z' })).toEqual(['req-3', 'req-2']);
    expect(await ids({ limit: '2', method: 'tools/call' })).toEqual(['req-6', 'req-5']);
    expect((JSON.parse((await run({ kind: 'chain_start', json: true })).out) as AuditRecord[]).map((r) => r.kind)).toEqual(['chain_start']);
    const table = (await run({ outcome: 'refused' })).out;
    expect(table).toMatch(/2025-03-01T10:05:00\.000Z\s+bob\s+tools\/call\s+get_sum\s+refused -32001 \(forbidden\)\s+0\s+req-5/);
    expect((await run({ subject: 'nobody' })).out).toBe('no audit records match\n');
  });

  it('refuses bad options with a hint', async () => {
    expect(await run({ from: 'yesterday' })).toMatchObject({ code: 2, err: expect.stringContaining('not a date') });
    expect(await run({ kind: 'everything' })).toMatchObject({ code: 2, err: expect.stringContaining('--kind: everything is not one of') });
    expect(await run({ limit: '0' })).toMatchObject({ code: 2, err: expect.stringContaining('--limit must be a positive integer') });
    expect(parseTime('2h', Date.parse('2025-03-01T12:00:00Z')).toISOString()).toBe('2025-03-01T10:00:00.000Z');
  });

  it('runs as `fa-mcp audit verify|query` with its options', async () => {
    const verify = recordingIo(dir);
    expect(await runCli(['node', 'fa-mcp', 'audit', 'verify', '--file', file, '--json'], () => verify)).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, count: 10, problem: null, chains: [{ records: 10, start: 'genesis' }] });
    const query = recordingIo(dir);
    expect(await runCli(['node', 'fa-mcp', 'audit', 'query', '--file', file, '--subject', 'bob', '--outcome', 'ok', '--limit', '2', '--json'], () => query)).toBe(0);
    expect((JSON.parse(query.stdout) as AuditRecord[]).map((r) => r.requestId)).toEqual(['req-7', 'req-3']);
    const both = recordingIo(dir);
    expect(await runCli(['node', 'fa-mcp', 'audit', 'query', '--db', '--file', file], () => both)).toBe(2);
    expect(both.stderr).toContain('give --db or --file, not both');
  });

  it('reads where the configuration writes when given neither --file nor --db', async () => {
    mkdirSync(join(dir, 'config'), { recursive: true });
    writeFileSync(join(dir, 'config', 'default.yaml'), 'mcp:\n  audit:\n    sink: jsonl\n    file: logs/audit.jsonl\n');
    const io = recordingIo(dir);
    expect(await runCommand(io, () => auditVerify(io, {}))).toBe(0);
    expect(io.stdout).toContain('audit trail intact: 10 records in 1 chain');
    const off = recordingIo(tempDir());
    expect(await runCommand(off, () => auditVerify(off, {}))).toBe(2);
    expect(off.stderr).toContain('mcp.audit writes to nowhere (sink off): name the records with --db [url] or --file <path…>');
  });
});
