/**
 * Compiling schemas must not use up V8's transitions of the empty-object shape
 * (RUNTIME_AJV_CODE in core/schema-validator.ts). Once they are used up, every
 * object later built from `{}` with a key not yet seen there gets a shape of
 * its own: parsed bodies, request contexts, node's nextTick records. Each call
 * then cost several times more, and its objects outlived the young generation.
 * V8 keeps at most 1,536 such transitions; ajv's optimizer left one per
 * generated variable name (`err0`, `_errs3`, `data12`, ...).
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../src/core/schema-validator.js';
import type { JsonObject } from '../../src/core/types.js';

setFlagsFromString('--allow-natives-syntax');
// A Function, not a literal call: the V8 intrinsic parses only in code compiled after the flag is set.
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/**
 * A schema with `fields` nested objects, arrays, formats and patterns, as large as a configuration
 * schema: ajv numbers the variables of one compile from 0, so one large schema makes the most names.
 */
function schemaOf(i: number, fields: number): JsonObject {
  const props: Record<string, JsonObject> = {};
  for (let p = 0; p < fields; p++) {
    props[`field${i}_${p}`] = {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 64 },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 10 },
        amount: { type: 'number', minimum: 0, maximum: 1e6 },
        kind: { enum: ['a', 'b', 'c'] },
        nested: { type: 'object', properties: { x: { type: 'integer' }, y: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['x'] },
      },
      required: ['id'],
      additionalProperties: false,
    };
  }
  return { type: 'object', properties: props, required: Object.keys(props).slice(0, 2) };
}

/** Two objects built from `{}` with the same new first key: one shared shape unless the transitions are used up. */
function freshKeyShares(key: string): boolean {
  const a: Record<string, number> = {};
  a[key] = 1;
  const b: Record<string, number> = {};
  b[key] = 2;
  return haveSameMap(a, b);
}

describe('schema compilation and the empty-object shape', () => {
  it('leaves objects built from {} sharing their shape after large schemas are compiled', () => {
    expect(freshKeyShares('probeBefore')).toBe(true);
    const validator = new SchemaValidator();
    const schemas = [schemaOf(0, 60), ...Array.from({ length: 20 }, (_, i) => schemaOf(i + 1, 4))];
    for (const schema of schemas) validator.compile(schema);
    // The compiled validators stay in use (the registry keeps them), and still validate.
    expect(validator.validate(schemas[0] as JsonObject, { field0_0: { id: 'x' }, field0_1: { id: 'y' } }).ok).toBe(true);
    expect(validator.validate(schemas[0] as JsonObject, { field0_0: { id: 'Bad Id' } }).ok).toBe(false);
    for (let k = 0; k < 20; k++) expect(freshKeyShares(`probeAfter${k}`)).toBe(true);
  });
});
