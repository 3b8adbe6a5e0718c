import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { quoteIdent, quoteTable, tableParts } from '../../src/db/identifiers.js';
import { addVectorColumnSql, createVectorIndexSql, fromVectorSql, nearestSql, toVectorSql } from '../../src/db/pgvector.js';
import { buildInsertSql, buildMergeSql, MAX_BIND_PARAMS, normalizeQuery } from '../../src/db/sql-builders.js';
import { isConnectionError, toDbError } from '../../src/db/db-errors.js';

describe('identifiers', () => {
  it('quotes and doubles embedded quotes, so a hostile name stays one identifier', () => {
    expect(quoteIdent('users')).toBe('"users"');
    expect(quoteIdent('a"; DROP TABLE x; --')).toBe('"a""; DROP TABLE x; --"');
    expect(quoteTable('public.users')).toBe('"public"."users"');
    expect(quoteTable({ schema: 's.x', table: 't"y' })).toBe('"s.x"."t""y"');
  });

  it('refuses empty, NUL-bearing, over-long and ambiguous names', () => {
    expect(() => quoteIdent('')).toThrow(ValidationError);
    expect(() => quoteIdent('a\u0000b')).toThrow(/NUL/);
    expect(() => quoteIdent('x'.repeat(64))).toThrow(/63 bytes/);
    expect(() => quoteIdent('ж'.repeat(32))).toThrow(/63 bytes/);
    expect(quoteIdent('x'.repeat(63))).toHaveLength(65);
    expect(() => tableParts('a.b.c')).toThrow(/at most one dot/);
  });
});

describe('insert and merge builders', () => {
  it('builds a parameterised multi-row insert; a missing key is DEFAULT, null is a parameter', () => {
    const q = buildInsertSql({ commonSchemaAndTable: 's.t', recordset: [{ a: 1, b: 'x' }, { a: 2, c: null }], addOutputInserted: true });
    expect(q.text).toBe('INSERT INTO "s"."t" ("a", "b", "c") VALUES ($1, $2, DEFAULT), ($3, DEFAULT, $4) RETURNING *');
    expect(q.values).toEqual([1, 'x', 2, null]);
    expect(buildInsertSql({ commonSchemaAndTable: 't', recordset: [{ a: 1 }], isErrorOnConflict: false }).text).toMatch(/ON CONFLICT DO NOTHING$/);
    expect(buildInsertSql({ commonSchemaAndTable: 't', recordset: [{ a: 1, b: 2 }], excludeFromInsert: ['b'] }).text).toBe('INSERT INTO "t" ("a") VALUES ($1)');
  });

  it('never puts a value in the text, whatever it contains', () => {
    const evil = "'); DROP TABLE users; --";
    const q = buildInsertSql({ commonSchemaAndTable: 't', recordset: [{ name: evil }] });
    expect(q.text).not.toContain('DROP');
    expect(q.values).toEqual([evil]);
  });

  it('builds an upsert with the update list, exclusions, null-keeping and RETURNING', () => {
    const q = buildMergeSql({
      commonSchemaAndTable: 't',
      recordset: [{ id: 1, name: 'a', created: 'now', note: null }],
      conflictFields: ['id'],
      fieldsExcludedFromUpdatePart: ['created'],
      noUpdateIfNull: true,
      returning: ['id', 'name'],
    });
    expect(q.text).toBe(
      'INSERT INTO "t" AS "tgt" ("id", "name", "created", "note") VALUES ($1, $2, $3, $4) ON CONFLICT ("id") DO UPDATE SET ' +
        '"name" = COALESCE(EXCLUDED."name", "tgt"."name"), "note" = COALESCE(EXCLUDED."note", "tgt"."note") RETURNING "id", "name"',
    );
    const nothing = buildMergeSql({ commonSchemaAndTable: 't', recordset: [{ id: 1 }], conflictFields: ['id'] });
    expect(nothing.text).toMatch(/ON CONFLICT \("id"\) DO NOTHING$/);
    const corrected = buildMergeSql({ commonSchemaAndTable: 't', recordset: [{ id: 1, v: 2 }], conflictFields: ['id'], mergeCorrection: (s) => `${s} -- checked` });
    expect(corrected.text).toMatch(/-- checked$/);
  });

  it('keeps the last record of a repeated key (one statement cannot update a row twice)', () => {
    const q = buildMergeSql({ commonSchemaAndTable: 't', recordset: [{ id: 1, v: 'old' }, { id: 2, v: 'x' }, { id: 1, v: 'new' }], conflictFields: ['id'] });
    expect(q.values).toEqual([1, 'new', 2, 'x']);
  });

  it('rejects what PostgreSQL would reject later, with a clear message', () => {
    expect(() => buildInsertSql({ commonSchemaAndTable: 't', recordset: [] })).toThrow(/empty/);
    expect(() => buildMergeSql({ commonSchemaAndTable: 't', recordset: [{ v: 1 }], conflictFields: ['id'] })).toThrow(/Conflict field "id"/);
    expect(() => buildMergeSql({ commonSchemaAndTable: 't', recordset: [{ v: 1 }], conflictFields: [] })).toThrow(/conflict fields/);
    const wide = Array.from({ length: Math.floor(MAX_BIND_PARAMS / 2) + 1 }, (_, i) => ({ a: i, b: i }));
    expect(() => buildInsertSql({ commonSchemaAndTable: 't', recordset: wide })).toThrow(/65535 parameters/);
  });

  it('accepts text + values, { text, values } and the classic { sqlText, sqlValues }', () => {
    expect(normalizeQuery('select $1', [1])).toEqual({ text: 'select $1', values: [1] });
    expect(normalizeQuery({ text: 'select $1', values: [2] })).toEqual({ text: 'select $1', values: [2] });
    expect(normalizeQuery({ sqlText: 'select $1', sqlValues: [3] })).toEqual({ text: 'select $1', values: [3] });
  });
});

describe('pgvector builders', () => {
  it('builds the column, both index kinds and the search', () => {
    expect(addVectorColumnSql({ table: 'docs', column: 'embedding', dimensions: 3 })).toBe('ALTER TABLE "docs" ADD COLUMN IF NOT EXISTS "embedding" vector(3)');
    expect(createVectorIndexSql({ table: 's.docs', column: 'embedding', operator: '<=>' })).toBe(
      'CREATE INDEX IF NOT EXISTS "docs_embedding_hnsw_idx" ON "s"."docs" USING hnsw ("embedding" vector_cosine_ops) WITH (m = 16, ef_construction = 64)',
    );
    expect(createVectorIndexSql({ table: 'docs', column: 'e', method: 'ivfflat', operator: '<#>', lists: 4 })).toMatch(/USING ivfflat \("e" vector_ip_ops\) WITH \(lists = 4\)$/);
    const q = nearestSql({ table: 'docs', column: 'e', vector: [1, 2], operator: '<=>', limit: 3, select: ['id'], where: { tenant: 't1', gone: null }, maxDistance: 0.5 });
    expect(q.text).toBe(
      'SELECT "id", "e" <=> $1 AS distance FROM "docs" WHERE "tenant" = $2 AND "gone" IS NULL AND "e" <=> $1 < $3 ORDER BY "e" <=> $1 LIMIT 3',
    );
    expect(q.values).toEqual(['[1,2]', 't1', 0.5]);
  });

  it('accepts only whitelisted operators and sane numbers', () => {
    for (const op of ['<->', '<#>', '<=>', '<+>']) expect(() => nearestSql({ table: 't', column: 'e', vector: [1], operator: op as '<->' })).not.toThrow();
    for (const op of ['<', '; DROP TABLE t; --', '<~>', 'constructor', '']) {
      expect(() => nearestSql({ table: 't', column: 'e', vector: [1], operator: op as '<->' })).toThrow(/Unknown distance operator/);
    }
    expect(() => createVectorIndexSql({ table: 't', column: 'e', method: 'ivfflat', operator: '<+>' })).toThrow(/ivfflat/);
    expect(() => toVectorSql([1, Number.NaN])).toThrow(/finite/);
    expect(() => toVectorSql([])).toThrow(/non-empty/);
    expect(() => nearestSql({ table: 't', column: 'e', vector: [1], limit: 0 })).toThrow(/limit/);
    expect(() => addVectorColumnSql({ table: 't', column: 'e', dimensions: 1.5 })).toThrow(/dimensions/);
  });

  it('reads the text form PostgreSQL prints for vector and halfvec back into numbers', () => {
    for (const v of [[1, 0.5, -2], [0.25, 1e-7, -3.5e20], [0]]) expect(fromVectorSql(toVectorSql(v))).toEqual(v);
    expect(fromVectorSql('[1,0.5,-2e-07]')).toEqual([1, 0.5, -2e-7]);
    expect(fromVectorSql('[0.099975586,1]')).toEqual([0.099975586, 1]); // halfvec prints its rounded value
    expect(fromVectorSql('[]')).toEqual([]);
    expect(() => fromVectorSql('{1:1}/3')).toThrow(/text form of a vector/); // a sparsevec is not registered
  });
});

describe('error mapping', () => {
  it('turns connection failures into -32006 and statement timeouts into -32004, and leaves SQL errors alone', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isConnectionError(refused)).toBe(true);
    expect((toDbError(refused, 'main') as { code: number }).code).toBe(-32006);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new AggregateError([refused]))).toBe(true);
    expect((toDbError(Object.assign(new Error('canceling statement'), { code: '57014' }), 'main') as { code: number }).code).toBe(-32004);
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    expect(toDbError(syntax, 'main')).toBe(syntax);
  });
});
