/**
 * pgvector and the embedded database (PGlite served over a loopback socket, the
 * same `pg` code path as a real server). Debian 12 ships no pgvector for
 * PostgreSQL 15, so vector search is proven here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { Databases, searchNearest, toVectorSql, withTransaction, type DistanceOperator } from '../../src/db/index.js';
import { dbConfig } from './pg-env.js';

const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
const SLOW = 180_000;

function embedded(dataDir = ''): Databases {
  return new Databases({ config: { postgres: { dbs: { main: dbConfig({ embedded: true, embeddedDataDir: dataDir, usedExtensions: ['vector'] }) } } }, logger });
}

const docs = [
  { id: 1, tenant: 'a', embedding: [1, 0, 0] },
  { id: 2, tenant: 'a', embedding: [0.9, 0.1, 0] },
  { id: 3, tenant: 'b', embedding: [0, 1, 0] },
  { id: 4, tenant: 'a', embedding: [0, 0, 1] },
  { id: 5, tenant: 'b', embedding: [-1, -1, 0.5] },
];

const distance: Record<DistanceOperator, (a: number[], b: number[]) => number> = {
  '<->': (a, b) => Math.hypot(...a.map((x, i) => x - b[i]!)),
  '<#>': (a, b) => -a.reduce((s, x, i) => s + x * b[i]!, 0),
  '<=>': (a, b) => 1 - a.reduce((s, x, i) => s + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b)),
  '<+>': (a, b) => a.reduce((s, x, i) => s + Math.abs(x - b[i]!), 0),
};

let db: Databases;
beforeAll(async () => {
  db = embedded();
  await db.main.exec('CREATE TABLE docs (id int PRIMARY KEY, tenant text NOT NULL)');
  await db.main.addVectorColumn({ table: 'docs', column: 'embedding', dimensions: 3 });
  await db.main.addVectorColumn({ table: 'docs', column: 'embedding', dimensions: 3 }); // idempotent
  await db.main.createVectorIndex({ table: 'docs', column: 'embedding', method: 'hnsw', operator: '<=>' });
  await db.main.createVectorIndex({ table: 'docs', column: 'embedding', method: 'ivfflat', operator: '<->', lists: 1 });
  await db.main.exec(db.main.getInsertSql({ commonSchemaAndTable: 'docs', recordset: docs.map((d) => ({ ...d, embedding: toVectorSql(d.embedding) })) }));
}, SLOW);

afterAll(async () => {
  await db?.close();
});

describe('pgvector on the embedded database', () => {
  it('runs the real pgvector on PGlite and returns vectors as number[]', async () => {
    const row = await db.main.oneRow<{ v: string; embedding: number[] }>("SELECT extversion AS v, (SELECT embedding FROM docs WHERE id = 2) AS embedding FROM pg_extension WHERE extname = 'vector'");
    expect(row?.v).toMatch(/^\d+\.\d+/);
    expect(row?.embedding).toEqual([0.9, 0.1, 0]);
    const half = await db.main.oneRow<{ h: number[] }>("SELECT '[1,0.5,-2]'::halfvec AS h");
    expect(half?.h).toEqual([1, 0.5, -2]);
    const indexes = await db.main.queryRs<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'docs' AND indexdef ~ '(hnsw|ivfflat)' ORDER BY indexname");
    expect(indexes.map((i) => i.indexdef)).toEqual([
      expect.stringMatching(/USING hnsw \(embedding vector_cosine_ops\) WITH \(m='16', ef_construction='64'\)/),
      expect.stringMatching(/USING ivfflat \(embedding\) WITH \(lists='1'\)/), // vector_l2_ops is the default class
    ]);
  });

  it.each(['<->', '<#>', '<=>', '<+>'] as DistanceOperator[])('orders by the %s distance of the caller’s choice', async (operator) => {
    const query = [0.8, 0.3, 0.1]; // no ties under any of the four distances
    const rows = await db.run(() => searchNearest<{ id: number; embedding: number[] }>({ table: 'docs', column: 'embedding', vector: query, operator, limit: 5 }));
    const expected = [...docs].sort((x, y) => distance[operator](x.embedding, query) - distance[operator](y.embedding, query));
    expect(rows.map((r) => r.id)).toEqual(expected.map((d) => d.id));
    rows.forEach((r) => {
      expect(r.distance).toBeCloseTo(distance[operator](r.embedding, query), 5);
    });
  });

  it('filters by equality and by a maximum distance, and returns the chosen columns only', async () => {
    const rows = await db.main.searchNearest({ table: 'docs', column: 'embedding', vector: [1, 0, 0], operator: '<->', where: { tenant: 'a' }, maxDistance: 1.2, select: ['id'] });
    expect(rows.map((r) => Object.keys(r).sort())).toEqual([['distance', 'id'], ['distance', 'id']]);
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('refuses an operator outside the whitelist before any SQL is sent', async () => {
    const err = await db.main.searchNearest({ table: 'docs', column: 'embedding', vector: [1, 0, 0], operator: '<-> 0; DROP TABLE docs; --' as DistanceOperator }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ code: -32602 });
    expect(await db.main.oneRow('SELECT count(*)::int AS c FROM docs')).toEqual({ c: 5 });
  });

  it('upserts and transactions behave as on a server, concurrent ones included', async () => {
    await db.main.mergeByBatch({ commonSchemaAndTable: 'docs', recordset: [{ id: 5, tenant: 'c' }, { id: 6, tenant: 'c', embedding: toVectorSql([0, 0, 0.5]) }], batchSize: 1 });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        db.run(() =>
          withTransaction(async (tx) => {
            await tx.exec('INSERT INTO docs (id, tenant) VALUES ($1, $2)', [100 + i, 'tx']);
            await new Promise((r) => setTimeout(r, 5));
            if (i % 2) throw new Error('rolled back');
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((await db.main.queryRs("SELECT id FROM docs WHERE tenant = 'tx' ORDER BY id")).map((r) => r.id)).toEqual([100, 102, 104]);
    expect(await db.main.oneRow('SELECT tenant FROM docs WHERE id = 5')).toEqual({ tenant: 'c' });
    const s = db.main.poolStats();
    expect(s.idle).toBe(s.total);
  });
});

describe('embedded data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mcp-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'keeps the data across restarts, and stops listening when closed',
    async () => {
      const first = embedded(dir);
      await first.main.exec('CREATE TABLE kept (id int PRIMARY KEY, v vector(2))');
      await first.main.exec('INSERT INTO kept VALUES (1, $1)', [toVectorSql([0.5, 0.25])]);
      await first.readinessChecks()[0]!.check(new AbortController().signal);
      const port = ((await first.main.pool()) as unknown as { options: { port: number } }).options.port;
      await first.close();
      await expect(new Promise((resolve, reject) => net.connect(port, '127.0.0.1').on('connect', resolve).on('error', reject))).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });

      const second = embedded(dir);
      try {
        expect(await second.main.oneRow('SELECT v FROM kept WHERE id = 1')).toEqual({ v: [0.5, 0.25] });
      } finally {
        await second.close();
      }
    },
    SLOW,
  );
});
