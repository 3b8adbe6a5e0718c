import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../src/core/schema-validator.js';
import type { JsonObject } from '../../src/core/types.js';

describe('SchemaValidator: draft 2020-12', () => {
  const v = new SchemaValidator();

  it('$defs and $ref', () => {
    const schema: JsonObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { from: { $ref: '#/$defs/point' } },
    };
    expect(v.validate(schema, { from: { x: 1 } })).toEqual({ ok: true, issues: [] });
    expect(v.validate(schema, { from: {} })).toEqual({ ok: false, issues: [{ field: 'from.x', reason: 'is required' }] });
  });

  it('prefixItems', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } },
    };
    expect(v.validate(schema, { pair: ['a', 1] }).ok).toBe(true);
    const bad = v.validate(schema, { pair: [1, 'a'] });
    expect(bad.ok).toBe(false);
    expect(bad.issues.map((i) => i.field).sort()).toEqual(['pair.0', 'pair.1']);
    expect(v.validate(schema, { pair: ['a', 1, 'extra'] }).ok).toBe(false);
  });

  it('unevaluatedProperties', () => {
    const schema: JsonObject = {
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      properties: { b: { type: 'string' } },
      unevaluatedProperties: false,
    };
    expect(v.validate(schema, { a: 'x', b: 'y' }).ok).toBe(true);
    expect(v.validate(schema, { a: 'x', c: 'z' }).ok).toBe(false);
  });

  it('an unevaluated property is reported like an additional one: its name and "is not allowed"', () => {
    const schema: JsonObject = {
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      unevaluatedProperties: false,
    };
    expect(v.validate(schema, { a: 'x', extra: 1 }).issues).toEqual([{ field: 'extra', reason: 'is not allowed' }]);
  });
});

describe('SchemaValidator: formats', () => {
  const v = new SchemaValidator();
  const schema = (format: string): JsonObject => ({ type: 'object', properties: { v: { type: 'string', format } } });

  it.each([
    ['email', 'ada@example.com', 'not-an-email'],
    ['date-time', '2026-01-31T12:30:00Z', '2026-01-31 noon'],
    ['uri', 'https://example.com/a?b=c', 'not a uri'],
    ['date', '2026-02-28', '2026-02-30'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123'],
  ])('%s: accepts a valid value, refuses an invalid one', (format, good, bad) => {
    expect(v.validate(schema(format), { v: good }).ok).toBe(true);
    const out = v.validate(schema(format), { v: bad });
    expect(out.ok).toBe(false);
    expect(out.issues[0]).toEqual({ field: 'v', reason: `must match format "${format}"` });
  });
});

describe('SchemaValidator: issues', () => {
  const v = new SchemaValidator();

  it('additionalProperties:false is { field, reason: "is not allowed" }', () => {
    const schema: JsonObject = { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false };
    expect(v.validate(schema, { q: 'x', nope: 1 })).toEqual({ ok: false, issues: [{ field: 'nope', reason: 'is not allowed' }] });
  });

  it('required is { field, reason: "is required" }', () => {
    const schema: JsonObject = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    expect(v.validate(schema, {})).toEqual({ ok: false, issues: [{ field: 'q', reason: 'is required' }] });
  });

  it('nested paths are dotted', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: { b: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } } },
        },
      },
    };
    const out = v.validate(schema, { a: { b: [{ n: 'one' }, { extra: true }] } });
    expect(out.ok).toBe(false);
    expect(out.issues).toEqual(
      expect.arrayContaining([
        { field: 'a.b.0.n', reason: 'must be integer' },
        { field: 'a.b.1.n', reason: 'is required' },
        { field: 'a.b.1.extra', reason: 'is not allowed' },
      ]),
    );
  });

  it('a type error at the root is "(root)"', () => {
    const out = v.validate({ type: 'object' }, 'a string');
    expect(out.issues).toEqual([{ field: '(root)', reason: 'must be object' }]);
  });

  it('reports every error, not only the first', () => {
    const schema: JsonObject = { type: 'object', required: ['a', 'b'], properties: { c: { type: 'number' } } };
    expect(v.validate(schema, { c: 'x' }).issues).toHaveLength(3);
  });

  it('a property whose name holds a slash or tilde is named as written, not JSON-pointer escaped', () => {
    const schema: JsonObject = { type: 'object', properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' } } };
    const fields = v.validate(schema, { 'a/b': 1, 'c~d': 2 }).issues.map((i) => i.field).sort();
    expect(fields).toEqual(['a/b', 'c~d']);
  });
});

describe('SchemaValidator: compiled once', () => {
  it('returns the same validate function for the same schema object', () => {
    const v = new SchemaValidator();
    const schema: JsonObject = { type: 'object', properties: { a: { type: 'string' } } };
    const first = v.compile(schema);
    expect(v.compile(schema)).toBe(first);
    v.validate(schema, { a: 'x' });
    expect(v.compile(schema)).toBe(first);
  });

  it('a different (even equal) schema object gets its own function', () => {
    const v = new SchemaValidator();
    expect(v.compile({ type: 'object' })).not.toBe(v.compile({ type: 'object' }));
  });

  it('a broken schema throws at compile', () => {
    expect(() => new SchemaValidator().compile({ type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toThrow();
  });
});
