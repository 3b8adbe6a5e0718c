/**
 * The PostgreSQL sink on the test database: a record acknowledged in sync mode is a committed row
 * (seen from another connection); the table refuses UPDATE, DELETE and TRUNCATE; `fa-mcp audit
 * verify --db` passes on the intact table and names the row of each tampering (the owner disabling
 * the guard first, as a superuser could); retention prunes old records behind a signed checkpoint
 * and verify still passes from the new start; the sink down makes /ready fail and sync refuse.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createAuditTrail, type AuditTrail } from '../../src/audit/audit-trail.js';
import { runCommand } from '../../src/cli/cli-io.js';
import { auditQuery, auditVerify, type QueryOptions, type VerifyOptions } from '../../src/cli/commands/audit.js';
import { urlVia, TcpProxy } from '../db/pg-env.js';
import { recordingIo } from '../devtools/cli-helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { ANCHOR_KEY, auditConfig, draft, recordingLogger } from './audit-harness.js';

const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

const DAY = 86_400_000;

/** A fresh schema holding two chains of one instance: the first closed (final anchor), the second open. */
async function populated(opts: { clock?: { now: number } } = {}): Promise<{ db: TestSchema; chains: string[] }> {
  const db = await createTestSchema('audit');
  schemas.push(db);
  const config = auditConfig({ sink: 'postgres', mode: 'sync', anchors: { key: ANCHOR_KEY, intervalMs: 60_000 } });
  const make = () =>
    createAuditTrail({ config, logger: recordingLogger(), pool: () => Promise.resolve(db.pool), databases: { has: () => true }, ...(opts.clock ? { now: () => (opts.clock as { now: number }).now } : {}) });
  const first = await make();
  for (let i = 0; i < 5; i++) await first.record(draft(i));
  await first.anchor();
  for (let i = 5; i < 8; i++) await first.record(draft(i));
  await first.close();
  if (opts.clock) opts.clock.now = Date.now();
  const second = await make();
  for (let i = 8; i < 12; i++) await second.record(draft(i, { outcome: i === 9 ? { status: 'error', code: -32602 } : { status: 'ok' } }));
  await second.close();
  return { db, chains: [first.chain as string, second.chain as string] };
}

async function verify(db: TestSchema, opts: Partial<VerifyOptions> = {}) {
  const io = recordingIo();
  io.env = { MCP_AUDIT_ANCHOR_KEY: ANCHOR_KEY };
  const code = await runCommand(io, () => auditVerify(io, { db: db.url, ...opts }));
  return { code, out: io.stdout + io.stderr };
}

/** Runs statements as the table's owner with the append-only guard off, as someone tampering would. */
async function tamper(db: TestSchema, ...statements: string[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('ALTER TABLE fa_mcp_audit DISABLE TRIGGER USER');
    for (const sql of statements) await client.query(sql);
    await client.query('ALTER TABLE fa_mcp_audit ENABLE TRIGGER USER');
  } finally {
    client.release();
  }
}

const idOf = async (db: TestSchema, requestId: string) => (await db.pool.query<{ id: string }>('SELECT id FROM fa_mcp_audit WHERE request_id = $1', [requestId])).rows[0]?.id;

describe('postgres sink', () => {
  it('commits a sync record before record() resolves, and refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = await createTestSchema('audit');
    schemas.push(db);
    const trail = await createAuditTrail({ config: auditConfig({ sink: 'postgres', mode: 'sync' }), logger: recordingLogger(), pool: () => Promise.resolve(db.pool), databases: { has: () => true } });
    const other = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        await trail.record(draft(i));
        const seen = await other.query<{ n: string }>('SELECT count(*) AS n FROM fa_mcp_audit WHERE request_id = $1', [`req-${i}`]);
        expect(seen.rows[0]?.n).toBe('1');
      }
      const row = (await other.query<{ subject: string; method: string; target_name: string; outcome: string; body: string }>("SELECT subject, method, target_name, outcome, body FROM fa_mcp_audit WHERE request_id = 'req-0'")).rows[0];
      expect(row).toMatchObject({ subject: 'alice', method: 'tools/call', target_name: 'delete_user', outcome: 'ok' });
      expect((JSON.parse(row?.body ?? '{}') as AuditRecord).arguments).toEqual({ mode: 'digest', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      for (const sql of ["UPDATE fa_mcp_audit SET subject = 'mallory'", 'DELETE FROM fa_mcp_audit', 'TRUNCATE fa_mcp_audit']) {
        await expect(other.query(sql), sql).rejects.toThrow(/fa_mcp_audit is append-only: (UPDATE|DELETE|TRUNCATE) refused/);
      }
      expect((await other.query<{ n: string }>('SELECT count(*) AS n FROM fa_mcp_audit')).rows[0]?.n).toBe('4');
    } finally {
      await other.end();
      await trail.close();
    }
  });

  it('verify --db: intact, then each tampering named', async () => {
    const { db, chains } = await populated();
    const intact = await verify(db);
    expect(intact.code).toBe(0);
    expect(intact.out).toContain('audit trail intact: 17 records in 2 chains');
    expect(intact.out).toContain(`chain ${chains[0]} (instance test-instance): 11 records, seq 0-10, 2 anchors; closed by a verified final anchor`);
    expect(intact.out).toContain(`chain ${chains[1]} (instance test-instance): 6 records, seq 0-5, 1 anchor; closed by a verified final anchor`);

    const edited = await populated();
    await tamper(edited.db, `UPDATE fa_mcp_audit SET body = replace(body, '"subject":"bob"', '"subject":"mallory"') WHERE request_id = 'req-3'`);
    const e = await verify(edited.db);
    expect(e.code).toBe(1);
    expect(e.out).toContain(`edited: id ${await idOf(edited.db, 'req-3')}`);
    expect(e.out).toContain('its content does not give its hash');

    const column = await populated();
    await tamper(column.db, "UPDATE fa_mcp_audit SET subject = 'mallory' WHERE request_id = 'req-3'");
    const c = await verify(column.db);
    expect(c.code).toBe(1);
    expect(c.out).toContain('its column subject ("mallory") differs from its record ("bob")');

    const deleted = await populated();
    await tamper(deleted.db, "DELETE FROM fa_mcp_audit WHERE request_id = 'req-3'");
    const d = await verify(deleted.db);
    expect(d.code).toBe(1);
    expect(d.out).toMatch(/deleted: id \d+ .*seq 4 of chain \S+ is missing/);

    const inserted = await populated();
    const last = (await inserted.db.pool.query<{ body: string }>(`SELECT body FROM fa_mcp_audit WHERE chain = '${inserted.chains[0]}' ORDER BY seq DESC LIMIT 1`)).rows[0];
    const anchor = JSON.parse(last?.body ?? '{}') as AuditRecord;
    const { recordHash, recordLine } = await import('../../src/audit/record-hash.js');
    const forged = { ...anchor, kind: 'request', final: undefined, sig: undefined, seq: anchor.seq + 1, prevHash: anchor.hash, requestId: 'req-forged', method: 'tools/call' } as unknown as AuditRecord;
    const forgedLine = recordLine({ ...forged, hash: recordHash(forged) });
    await tamper(inserted.db, `INSERT INTO fa_mcp_audit (ts, instance, chain, seq, kind, prev_hash, hash, request_id, method, body) SELECT ts, instance, chain, seq + 1, 'request', hash, '${recordHash(forged)}', 'req-forged', 'tools/call', '${forgedLine}' FROM fa_mcp_audit WHERE chain = '${inserted.chains[0]}' AND seq = ${anchor.seq}`);
    const i = await verify(inserted.db);
    expect(i.code).toBe(1);
    expect(i.out).toContain(`inserted: id ${await idOf(inserted.db, 'req-forged')}`);
    expect(i.out).toContain('a record after the final anchor of chain');

    const reordered = await populated();
    const [a, b] = [await idOf(reordered.db, 'req-5'), await idOf(reordered.db, 'req-6')];
    await tamper(reordered.db, `UPDATE fa_mcp_audit SET id = -id WHERE id = ${a}`, `UPDATE fa_mcp_audit SET id = ${a} WHERE id = ${b}`, `UPDATE fa_mcp_audit SET id = ${b} WHERE id = -${a}`);
    const r = await verify(reordered.db);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/reordered: id \d+ .*seq 7 of chain \S+ comes after seq 8/);

    const truncated = await populated();
    await tamper(truncated.db, `DELETE FROM fa_mcp_audit WHERE chain = '${truncated.chains[0]}' AND seq >= 9`);
    const t = await verify(truncated.db);
    expect(t.code).toBe(1);
    expect(t.out).toMatch(/truncated: .*chain \S+ ends at seq 8, but chain \S+'s signed start \(id \d+\) says it reached seq 10: its last 2 records were removed/);
  });

  it('prunes records past retention behind a signed checkpoint; verify still passes, and refuses a changed checkpoint', async () => {
    const clock = { now: Date.now() - 40 * DAY };
    const { db, chains } = await populated({ clock });
    const config = auditConfig({ sink: 'postgres', mode: 'sync', retentionDays: 30, anchors: { key: ANCHOR_KEY, intervalMs: 60_000 } });
    const trail: AuditTrail = await createAuditTrail({ config, logger: recordingLogger(), pool: () => Promise.resolve(db.pool), databases: { has: () => true } });
    const result = await trail.prune();
    expect(result).toMatchObject({ ran: true, deleted: 11, chains: 1 });
    await trail.record(draft(99));
    await trail.close();
    const checkpoint = (await db.pool.query<{ body: string; seq: string }>("SELECT body, seq FROM fa_mcp_audit WHERE kind = 'checkpoint'")).rows;
    expect(checkpoint).toHaveLength(1);
    expect(JSON.parse(checkpoint[0]?.body ?? '{}')).toMatchObject({ kind: 'checkpoint', chain: chains[0], seq: 10, pruned: { count: 11 }, sig: { alg: 'HS256' } });
    const v = await verify(db);
    expect(v.code).toBe(0);
    expect(v.out).toContain(`chain ${chains[0]} (instance test-instance): 1 record, seq 10-10, from a retention checkpoint (11 records before`);
    expect(v.out).toContain(`its end is confirmed by the start of chain ${chains[1]}`);

    await tamper(db, "UPDATE fa_mcp_audit SET body = replace(body, '\"count\":11', '\"count\":3') WHERE kind = 'checkpoint'");
    const forged = await verify(db);
    expect(forged.code).toBe(1);
    expect(forged.out).toContain("forged: ");
    expect(forged.out).toContain("the checkpoint's signature does not verify");
  });

  it('a prefix deleted outside retention is named', async () => {
    const { db, chains } = await populated();
    await tamper(db, `DELETE FROM fa_mcp_audit WHERE chain = '${chains[1]}' AND seq < 3`);
    const v = await verify(db);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(new RegExp(`deleted: id \\d+ \\(chain ${chains[1]}, seq 3\\): chain ${chains[1]} \\(instance test-instance\\) begins at seq 3`));
  });

  it('query --db filters by principal, method, target, outcome and time, as a table or JSON', async () => {
    const { db } = await populated();
    const run = async (opts: Partial<QueryOptions>) => {
      const io = recordingIo();
      const code = await runCommand(io, () => auditQuery(io, { db: db.url, ...opts }));
      expect(code, io.stderr).toBe(0);
      return io.stdout;
    };
    const json = async (opts: Partial<QueryOptions>) => (JSON.parse(await run({ ...opts, json: true })) as AuditRecord[]).map((r) => r.requestId);
    expect(await json({ subject: 'alice' })).toEqual(['req-10', 'req-8', 'req-6', 'req-4', 'req-2', 'req-0']);
    expect(await json({ target: 'delete_user', subject: 'alice' })).toEqual(['req-6', 'req-0']);
    expect(await json({ outcome: 'error' })).toEqual(['req-9']);
    expect(await json({ method: 'resources/read' })).toEqual([]);
    expect(await json({ limit: '2' })).toEqual(['req-11', 'req-10']);
    expect(await json({ from: '1h', to: new Date(Date.now() + 60_000).toISOString(), subject: 'bob', target: 'get_sum' })).toEqual(['req-11', 'req-7', 'req-5', 'req-1']);
    expect(await json({ from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await json({ kind: 'anchor' })).toHaveLength(3);
    const table = await run({ outcome: 'error' });
    expect(table.split('\n')[0]).toMatch(/^TIME\s+SUBJECT\s+METHOD\s+TARGET\s+OUTCOME\s+MS\s+REQUEST$/);
    expect(table).toMatch(/bob\s+tools\/call\s+delete_user\s+error -32602\s+1\.5\s+req-9/);
  });

  it('with the database gone, /ready fails and sync refuses; it records again once back', async () => {
    const db = await createTestSchema('audit');
    schemas.push(db);
    const proxy = new TcpProxy();
    await proxy.open();
    const url = `${urlVia(proxy.port)}${db.url.slice(db.url.indexOf('?'))}`;
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 1000 });
    pool.on('error', () => undefined);
    const trail = await createAuditTrail({ config: auditConfig({ sink: 'postgres', mode: 'sync' }), logger: recordingLogger(), pool: () => Promise.resolve(pool), databases: { has: () => true } });
    try {
      await trail.record(draft(1));
      const ready = trail.readinessCheck();
      await expect(ready?.check(new AbortController().signal)).resolves.toBeUndefined();
      await proxy.close();
      await expect(trail.record(draft(2))).rejects.toMatchObject({ code: -32006 });
      await expect(ready?.check(new AbortController().signal)).rejects.toThrow(/postgres:main/);
      await proxy.open();
      await trail.record(draft(3));
      const ids = (await db.pool.query<{ request_id: string; outcome: string; code: number | null }>("SELECT request_id, outcome, code FROM fa_mcp_audit WHERE kind = 'request' ORDER BY id")).rows;
      // req-2 was refused to its client (-32006) and is recorded as such, before req-3
      expect(ids).toEqual([
        { request_id: 'req-1', outcome: 'ok', code: null },
        { request_id: 'req-2', outcome: 'error', code: -32006 },
        { request_id: 'req-3', outcome: 'ok', code: null },
      ]);
      await expect(ready?.check(new AbortController().signal)).resolves.toBeUndefined();
    } finally {
      await trail.close();
      await pool.end();
      await proxy.close();
    }
  });
});
