/** Compatibility rules of input and output schemas, one rule per case, both directions. */
import { describe, expect, it } from 'vitest';
import type { ChangeLevel, ContractChange } from '../../src/contract/index.js';
import { compareSchemas, type SchemaDirection } from '../../src/contract/index.js';

function changes(a: unknown, b: unknown, dir: SchemaDirection): Array<Pick<ContractChange, 'level' | 'path' | 'message'>> {
  const out: Array<Pick<ContractChange, 'level' | 'path' | 'message'>> = [];
  compareSchemas(a, b, dir, 'inputSchema', (level: ChangeLevel, path: string, message: string) => out.push({ level, path, message }));
  return out;
}
const levels = (a: unknown, b: unknown, dir: SchemaDirection) => changes(a, b, dir).map((c) => c.level);

const base = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What to find' }, limit: { type: 'integer', maximum: 50 } },
  required: ['query'],
};
const withProps = (props: Record<string, unknown>, required = ['query']) => ({ ...base, properties: { ...base.properties, ...props }, required });

describe('compareSchemas', () => {
  it('reports nothing for equal schemas, whatever the key order', () => {
    const reordered = { required: ['query'], properties: { limit: { maximum: 50, type: 'integer' }, query: { description: 'What to find', type: 'string' } }, type: 'object' };
    expect(changes(base, reordered, 'input')).toEqual([]);
  });

  it('a new required input field is MAJOR, a new optional one MINOR', () => {
    expect(changes(base, withProps({ region: { type: 'string' } }, ['query', 'region']), 'input')).toEqual([
      { level: 'major', path: 'inputSchema.properties.region', message: 'new required input field "region"' },
    ]);
    expect(levels(base, withProps({ region: { type: 'string' } }), 'input')).toEqual(['minor']);
  });

  it('making an existing input field required is MAJOR; relaxing it is MINOR', () => {
    expect(levels(base, { ...base, required: ['query', 'limit'] }, 'input')).toEqual(['major']);
    expect(levels(base, { ...base, required: [] }, 'input')).toEqual(['minor']);
  });

  it('a removed output field is MAJOR, a new one MINOR; an output field no longer required is MAJOR', () => {
    const out = { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id'] };
    const removed = { ...out, properties: { id: { type: 'string' } } };
    expect(changes(out, removed, 'output')).toEqual([{ level: 'major', path: 'inputSchema.properties.score', message: 'output field "score" removed' }]);
    expect(levels(removed, out, 'output')).toEqual(['minor']);
    expect(levels(out, { ...out, required: [] }, 'output')).toEqual(['major']);
    expect(levels(out, { ...out, required: ['id', 'score'] }, 'output')).toEqual(['minor']);
  });

  it('type widening is safe for input and breaking for output; narrowing the reverse', () => {
    const s = { type: 'string' };
    const sn = { type: ['string', 'null'] };
    expect(levels(s, sn, 'input')).toEqual(['minor']);
    expect(levels(s, sn, 'output')).toEqual(['major']);
    expect(levels(sn, s, 'input')).toEqual(['major']);
    expect(levels(sn, s, 'output')).toEqual(['minor']);
    expect(levels({ type: 'integer' }, { type: 'number' }, 'input')).toEqual(['minor']);
    expect(levels({ type: 'string' }, { type: 'boolean' }, 'output')).toEqual(['major']);
  });

  it('input enum: removed values are MAJOR, added values MINOR', () => {
    const e = (values: string[]) => ({ type: 'string', enum: values });
    expect(changes(e(['a', 'b']), e(['a']), 'input')).toEqual([{ level: 'major', path: 'inputSchema.enum', message: 'values removed: ["b"]' }]);
    expect(levels(e(['a']), e(['a', 'b']), 'input')).toEqual(['minor']);
    expect(levels(e(['a', 'b']), e(['a']), 'output')).toEqual(['minor']);
  });

  it('tighter input bounds are MAJOR, looser MINOR; a new bound tightens', () => {
    expect(levels(base, withProps({ limit: { type: 'integer', maximum: 10 } }), 'input')).toEqual(['major']);
    expect(levels(base, withProps({ limit: { type: 'integer', maximum: 100 } }), 'input')).toEqual(['minor']);
    expect(levels({ type: 'string' }, { type: 'string', minLength: 1 }, 'input')).toEqual(['major']);
    expect(levels({ type: 'string', minLength: 3 }, { type: 'string', minLength: 1 }, 'input')).toEqual(['minor']);
  });

  it('closing an input schema to unknown fields is MAJOR, opening it MINOR', () => {
    expect(levels(base, { ...base, additionalProperties: false }, 'input')).toEqual(['major']);
    expect(levels({ ...base, additionalProperties: false }, base, 'input')).toEqual(['minor']);
  });

  it('wording is PATCH at any depth', () => {
    expect(changes(base, withProps({ query: { type: 'string', description: 'Words to find' } }), 'input')).toEqual([
      { level: 'patch', path: 'inputSchema.properties.query.description', message: 'description changed' },
    ]);
  });

  it('what it cannot prove compatible (a new pattern, a changed oneOf) is MAJOR on input', () => {
    expect(levels({ type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }, 'input')).toEqual(['major']);
    expect(levels({ oneOf: [{ type: 'string' }] }, { oneOf: [{ type: 'number' }] }, 'input')).toEqual(['major']);
  });

  it('recurses into array items', () => {
    const arr = (item: unknown) => ({ type: 'array', items: item });
    expect(changes(arr({ type: 'object', properties: { a: { type: 'string' } } }), arr({ type: 'object', properties: {} }), 'output')).toEqual([
      { level: 'major', path: 'inputSchema.items.properties.a', message: 'output field "a" removed' },
    ]);
  });
});
