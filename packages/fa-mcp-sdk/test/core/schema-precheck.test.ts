/**
 * compilesLater (core/schema-precheck.ts): a schema it lets through is one ajv compiles (so deferring
 * its compile cannot move an error from the start to a call); anything it does not know is compiled
 * at start. Each verdict is checked against ajv itself, with the validator the registry uses.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compilesLater, KNOWN_FORMATS } from '../../src/core/schema-precheck.js';
import { SchemaValidator } from '../../src/core/schema-validator.js';
import type { JsonObject } from '../../src/core/types.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonObject => ({ type: 'object', properties, ...extra }) as JsonObject;

const DEFERRED: Array<[string, JsonObject]> = [
  ['empty properties', obj({})],
  ['typical tool input', obj({ q: { type: 'string', minLength: 1, description: 'query' }, n: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }, { required: ['q'], additionalProperties: false })],
  ['the 2020-12 $schema', obj({ q: { type: 'string' } }, { $schema: 'https://json-schema.org/draft/2020-12/schema' })],
  ['nested objects and arrays', obj({ tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true, maxItems: 3 }, at: { type: 'object', properties: { x: { type: ['number', 'null'] } } } })],
  ['combinators, const, pattern, format', obj({ id: { anyOf: [{ type: 'string', pattern: '^[a-z]+\\d*$' }, { const: 7 }] }, when: { type: 'string', format: 'date-time' }, no: { not: { type: 'null' } } })],
  ['prefixItems and boolean subschemas', obj({ pair: { type: 'array', prefixItems: [{ type: 'number' }, true], items: false } })],
];

const EAGER: Array<[string, JsonObject]> = [
  ['a $ref', obj({ a: { $ref: '#/$defs/missing' } })],
  ['$defs', obj({}, { $defs: { x: { type: 'string' } } })],
  ['an $id', obj({}, { $id: 'https://example.com/s' })],
  ['a type that is not one', obj({ a: { type: 'nonsense' } })],
  ['a repeated type', obj({ a: { type: ['string', 'string'] } })],
  ['a regex that does not compile', obj({ a: { pattern: '([' } })],
  ['a format ajv-formats does not have', obj({ a: { type: 'string', format: 'color' } })],
  ['a number keyword given a string', obj({ a: { type: 'string', minLength: '1' } })],
  ['required given a string', obj({}, { required: 'a' })],
  ['an empty enum', obj({ a: { enum: [] } })],
  ['items as an array (not 2020-12)', obj({ a: { type: 'array', items: [{ type: 'string' }] } })],
  ['another $schema', obj({}, { $schema: 'http://json-schema.org/draft-07/schema#' })],
  ['a conditional', obj({}, { if: { required: ['a'] }, then: { required: ['b'] } })],
  ['an unknown keyword', obj({ a: { type: 'string', nullable: true } })],
  ['properties that are not schemas', obj({ a: 5 })],
];

describe('compilesLater', () => {
  it.each(DEFERRED)('defers %s, and ajv compiles it', (_name, schema) => {
    expect(compilesLater(schema)).toBe(true);
    expect(() => new SchemaValidator().compile(schema)).not.toThrow();
  });

  it.each(EAGER)('leaves %s to the compile at start', (_name, schema) => {
    expect(compilesLater(schema)).toBe(false);
  });

  it('leaves every schema ajv refuses to the start (the broken ones above that ajv does refuse)', () => {
    const refused = EAGER.filter(([, schema]) => {
      try {
        new SchemaValidator().compile(schema);
        return false;
      } catch {
        return true;
      }
    });
    // ajv (strict: false) refuses at least these; compilesLater must never defer one of them
    expect(refused.map(([name]) => name)).toEqual(expect.arrayContaining(['a $ref', 'a type that is not one', 'a regex that does not compile']));
    for (const [, schema] of refused) expect(compilesLater(schema)).toBe(false);
  });

  it('knows only formats that ajv-formats defines', () => {
    const { fullFormats } = createRequire(import.meta.url)('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> };
    for (const format of KNOWN_FORMATS) expect(Object.keys(fullFormats), format).toContain(format);
  });

  it('stops at a depth bound instead of recursing without end', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    expect(compilesLater(deep as JsonObject)).toBe(false);
  });
});
