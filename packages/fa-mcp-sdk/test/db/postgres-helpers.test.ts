/**
 * The helpers on the real PostgreSQL 15 of the test machine, in a schema of
 * their own that is dropped at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError, UpstreamUnavailableError } from '../../src/core/errors.js';
import {
  Databases,
  execDB,
  execMAIN,
  getDb,
  getInsertSqlMAIN,
  getMergeSqlMAIN,
  mergeByBatch,
  oneRowMAIN,
  queryDB,
  queryMAIN,
  queryRsMAIN,
  quoteIdent,
  quoteTable,
  withTransaction,
} from '../../src/db/index.js';
import { createTestSchema, dbConfig, PG_URL } from './pg-env.js';

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };

let schema: Awaited<ReturnType<typeof createTestSchema>>;
let db: Databases;
let items: string;

beforeAll(async () => {
  schema = await createTestSchema();
  db = new Databases({
    config: { postgres: { dbs: { main: dbConfig({ url: PG_URL }), reports: dbConfig({ url: PG_URL, poolSize: 2 }) } } },
    logger,
  });
  items = quoteTable({ schema: schema.name, table: 'items' });
  await db.main.exec(`CREATE TABLE ${items} (id int PRIMARY KEY, name text NOT NULL, qty int DEFAULT 7, note text)`);
});

afterAll(async () => {
  await db?.close();
  await schema?.drop();
});

const released = () => {
  const s = db.main.poolStats();
  expect(s.waiting).toBe(0);
  expect(s.idle).toBe(s.total);
};

describe('query helpers', () => {
  it('insert, select, one row, exec and the classic argument form', async () => {
    await db.run(async () => {
      const insert = getInsertSqlMAIN({ commonSchemaAndTable: { schema: schema.name, table: 'items' }, recordset: [{ id: 1, name: 'one' }, { id: 2, name: 'two', qty: 3 }] });
      expect(await execMAIN(insert)).toBe(2);
      expect(await queryRsMAIN(`SELECT id, qty FROM ${items} ORDER BY id`)).toEqual([{ id: 1, qty: 7 }, { id: 2, qty: 3 }]);
      expect(await oneRowMAIN<{ name: string }>(`SELECT name FROM ${items} WHERE id = $1`, [2])).toEqual({ name: 'two' });
      expect(await oneRowMAIN(`SELECT name FROM ${items} WHERE id = $1`, [99])).toBeUndefined();
      const res = await queryMAIN({ sqlText: `SELECT count(*)::int AS n FROM ${items} WHERE qty > $1`, sqlValues: [0] });
      expect(res.rows[0]).toEqual({ n: 2 });
      expect(await execMAIN(`UPDATE ${items} SET note = $1 WHERE id = $2`, ['kept', 1])).toBe(1);
    });
  });

  it('upserts on the primary key when no conflict fields are given, with RETURNING and null-keeping', async () => {
    await db.run(async () => {
      const merge = await getMergeSqlMAIN({
        commonSchemaAndTable: `${schema.name}.items`,
        recordset: [{ id: 1, name: 'uno', note: null }, { id: 3, name: 'three', note: 'new' }],
        noUpdateIfNull: true,
        returning: ['id', 'name', 'note'],
      });
      expect(merge.text).toContain('ON CONFLICT ("id")');
      const rows = (await queryMAIN(merge)).rows.sort((a, b) => Number(a.id) - Number(b.id));
      expect(rows).toEqual([{ id: 1, name: 'uno', note: 'kept' }, { id: 3, name: 'three', note: 'new' }]);
    });
  });

  it('named databases answer through the *DB helpers, unknown names are a clear error', async () => {
    await db.run(async () => {
      const { rows } = await queryDB<{ n: number }>('reports', `SELECT count(*)::int AS n FROM ${items}`);
      expect(rows[0]?.n).toBe(3);
      expect(await execDB('reports', `UPDATE ${items} SET qty = qty + 1 WHERE id = $1`, [3])).toBe(1);
      expect(() => getDb('nope')).toThrow(/Database "nope" is not configured/);
    });
  });

  it('the free helpers refuse to run outside a database scope', () => {
    expect(() => queryMAIN('SELECT 1')).toThrow(/No database scope/);
  });

  it('SQL errors keep their SQLSTATE; connection failures become -32006; statement timeouts -32004', async () => {
    await expect(db.main.query('SELECT * FROM fa_mcp_no_such_table')).rejects.toMatchObject({ code: '42P01' });
    const down = new Databases({ config: { postgres: { dbs: { main: dbConfig({ host: '127.0.0.1', port: 1, user: 'x', connectionTimeoutMs: 500 }) } } }, logger });
    const err = await down.main.query('SELECT 1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err).toMatchObject({ code: -32006, data: { upstream: 'database', database: 'main' } });
    await down.close();
    const slow = new Databases({ config: { postgres: { dbs: { main: dbConfig({ url: PG_URL, statementTimeoutMs: 200 }) } } }, logger });
    const timeout = await slow.main.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(timeout).toMatchObject({ code: -32004 });
    await slow.close();
    await expect(slow.main.query('SELECT 1')).rejects.toMatchObject({ code: -32006, message: 'Database "main" is closed' });
  });
});

describe('transactions', () => {
  it('roll back when fn throws, commit when it resolves, and always release the client', async () => {
    await expect(
      db.main.withTransaction(async (tx) => {
        await tx.exec(`INSERT INTO ${items} (id, name) VALUES (100, 'doomed')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.main.oneRow(`SELECT 1 FROM ${items} WHERE id = 100`)).toBeUndefined();
    released();
    await db.main.withTransaction((tx) => tx.exec(`INSERT INTO ${items} (id, name) VALUES (101, 'kept')`));
    expect(await db.main.oneRow(`SELECT name FROM ${items} WHERE id = 101`)).toEqual({ name: 'kept' });
    released();
  });

  it('the ambient helpers called inside the callback run on the transaction client', async () => {
    await db.run(async () => {
      await expect(
        withTransaction(async () => {
          const a = await oneRowMAIN<{ x: string }>('SELECT txid_current()::text AS x');
          const b = await oneRowMAIN<{ x: string }>('SELECT txid_current()::text AS x');
          expect(a?.x).toBe(b?.x);
          await execMAIN(`INSERT INTO ${items} (id, name) VALUES (102, 'ambient')`);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await oneRowMAIN(`SELECT 1 FROM ${items} WHERE id = 102`)).toBeUndefined();
    });
    released();
  });

  it('nested calls are savepoints: a failed inner block rolls back alone', async () => {
    await db.main.withTransaction(async (tx) => {
      await tx.exec(`INSERT INTO ${items} (id, name) VALUES (103, 'outer')`);
      await expect(
        tx.withTransaction(async (inner) => {
          await inner.exec(`INSERT INTO ${items} (id, name) VALUES (104, 'inner')`);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    expect((await db.main.queryRs(`SELECT id FROM ${items} WHERE id IN (103, 104)`)).map((r) => r.id)).toEqual([103]);
    released();
  });

  it('a connection that dies mid-transaction is destroyed, not leaked, and the pool carries on', async () => {
    const err = await db.main
      .withTransaction(async (tx) => {
        await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32006 });
    released();
    expect(await db.main.oneRow('SELECT 1 AS ok')).toEqual({ ok: 1 });
  });

  it('many concurrent transactions, half failing, leave no client checked out', async () => {
    const runs = Array.from({ length: 30 }, (_, i) =>
      db.main.withTransaction(async (tx) => {
        await tx.query('SELECT pg_sleep(0.01)');
        if (i % 2) throw new Error(`fail ${i}`);
        return i;
      }),
    );
    const results = await Promise.allSettled(runs);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(15);
    released();
    expect(db.main.poolStats().total).toBeLessThanOrEqual(5);
  });
});

describe('mergeByBatch', () => {
  it('upserts 10,000 rows in batches, one transaction each, then updates and extends them', async () => {
    const bulk = quoteTable({ schema: schema.name, table: 'bulk' });
    await db.main.exec(`CREATE TABLE ${bulk} (id int PRIMARY KEY, v text NOT NULL, n int NOT NULL)`);
    const first = Array.from({ length: 10_000 }, (_, i) => ({ id: i, v: `v${i}`, n: i }));
    const progress: number[] = [];
    const r1 = await db.run(() =>
      mergeByBatch({ commonSchemaAndTable: { schema: schema.name, table: 'bulk' }, recordset: first, batchSize: 1000, onBatch: (p) => progress.push(p.records) }),
    );
    expect(r1).toMatchObject({ batches: 10, rowCount: 10_000 });
    expect(progress).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
    const second = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 5000, v: `w${i + 5000}`, n: -(i + 5000) }));
    const r2 = await db.main.mergeByBatch({ commonSchemaAndTable: `${schema.name}.bulk`, recordset: second, batchSize: 3000 });
    expect(r2).toMatchObject({ batches: 4, rowCount: 10_000 });
    expect(await db.main.oneRow(`SELECT count(*)::int AS c, sum(CASE WHEN v LIKE 'w%' THEN 1 ELSE 0 END)::int AS w FROM ${bulk}`)).toEqual({ c: 15_000, w: 10_000 });
    expect(await db.main.oneRow(`SELECT v, n FROM ${bulk} WHERE id = 4999`)).toEqual({ v: 'v4999', n: 4999 });
    expect(await db.main.oneRow(`SELECT v, n FROM ${bulk} WHERE id = 5000`)).toEqual({ v: 'w5000', n: -5000 });
    released();
  });

  it('a failing batch rolls back alone: the batches before it stay committed', async () => {
    const t = quoteTable({ schema: schema.name, table: 'partial' });
    await db.main.exec(`CREATE TABLE ${t} (id int PRIMARY KEY, v text NOT NULL)`);
    const rows = Array.from({ length: 250 }, (_, i) => ({ id: i, v: i === 220 ? null : `v${i}` }));
    await expect(db.main.mergeByBatch({ commonSchemaAndTable: { schema: schema.name, table: 'partial' }, recordset: rows, batchSize: 100 })).rejects.toMatchObject({
      code: '23502',
    });
    expect(await db.main.oneRow(`SELECT count(*)::int AS c FROM ${t}`)).toEqual({ c: 200 });
    released();
  });

  it('takes a custom statement builder (the classic getMergeSqlFn) and collects RETURNING rows', async () => {
    const res = await db.run(() =>
      mergeByBatch({
        recordset: [{ id: 1 }, { id: 2 }, { id: 3 }],
        batchSize: 2,
        getMergeSqlFn: (batch) => ({ text: `UPDATE ${items} SET qty = qty * 10 WHERE id = ANY($1::int[]) RETURNING id, qty`, values: [batch.map((r) => r.id)] }),
      }),
    );
    expect(res.batches).toBe(2);
    expect(res.rows.map((r) => r.id).sort()).toEqual([1, 2, 3]);
  });
});

describe('hostile identifiers', () => {
  it('a table and columns named to break out of quoting stay plain names', async () => {
    const table = 'evil"; DROP TABLE items; --';
    const ref = { schema: schema.name, table };
    const col = 'na"me; DELETE FROM items';
    await db.main.exec(`CREATE TABLE ${quoteTable(ref)} (id int PRIMARY KEY, ${quoteIdent(col)} text, "select" text)`);
    await db.run(async () => {
      await execMAIN(getInsertSqlMAIN({ commonSchemaAndTable: ref, recordset: [{ id: 1, [col]: "x'); DROP TABLE items; --", select: 's' }] }));
      const merge = await getMergeSqlMAIN({ commonSchemaAndTable: ref, recordset: [{ id: 1, select: 'updated' }, { id: 2, [col]: 'y' }], noUpdateIfNull: true });
      await queryMAIN(merge);
    });
    const rows = await db.main.queryRs(`SELECT * FROM ${quoteTable(ref)} ORDER BY id`);
    expect(rows).toEqual([
      { id: 1, [col]: "x'); DROP TABLE items; --", select: 'updated' },
      { id: 2, [col]: 'y', select: null },
    ]);
    expect((await db.main.oneRow<{ c: number }>(`SELECT count(*)::int AS c FROM ${items}`))!.c).toBeGreaterThan(0);
  });
});
