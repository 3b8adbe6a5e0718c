/**
 * x-mcp-header declarations (core/param-headers.ts): which are valid, how a header value is
 * decoded and compared, and how the registry refuses a tool whose declaration is invalid, static
 * tools at construction and tools given as a function at their first list or call.
 */
import { describe, expect, it } from 'vitest';
import { decodeParamHeader, findParamHeaderMismatch, ParamHeaderRules, scanParamHeaders } from '../../src/core/param-headers.js';
import { Registry } from '../../src/core/registry.js';
import type { JsonObject } from '../../src/core/types.js';
import { caughtSync, makeCtx, tool } from './helpers.js';

const objectOf = (properties: JsonObject, extra: JsonObject = {}): JsonObject & { type: 'object' } => ({ ...extra, type: 'object', properties });

describe('scanParamHeaders: valid declarations', () => {
  it('finds declarations reached through properties at any depth, with their header names', () => {
    const schema = objectOf({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      plain: { type: 'string' },
      filter: objectOf({ limit: { type: 'integer', 'x-mcp-header': 'Limit' }, exact: { type: 'boolean', 'x-mcp-header': "Exact!#$%&'*+-.^_`|~9" } }),
    });
    expect(scanParamHeaders('t', schema)).toEqual([
      { path: ['region'], header: 'Mcp-Param-Region', key: 'mcp-param-region', type: 'string' },
      { path: ['filter', 'limit'], header: 'Mcp-Param-Limit', key: 'mcp-param-limit', type: 'integer' },
      { path: ['filter', 'exact'], header: "Mcp-Param-Exact!#$%&'*+-.^_`|~9", key: "mcp-param-exact!#$%&'*+-.^_`|~9", type: 'boolean' },
    ]);
  });

  it('a schema without declarations has none', () => {
    expect(scanParamHeaders('t', objectOf({ a: { type: 'string' } }, { $defs: { x: { type: 'string' } } }))).toEqual([]);
  });
});

describe('scanParamHeaders: invalid declarations name the tool and the property', () => {
  it.each([
    ['an object property', objectOf({ filter: { type: 'object', 'x-mcp-header': 'Filter' } }), 'filter', /string, integer or boolean.*object/],
    ['a number property (the revision admits integer, not number)', objectOf({ ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }), 'ratio', /number/],
    ['an array property', objectOf({ tags: { type: 'array', 'x-mcp-header': 'Tags' } }), 'tags', /array/],
    ['a property of several types', objectOf({ note: { type: ['string', 'null'], 'x-mcp-header': 'Note' } }), 'note', /no single type/],
    ['an empty name', objectOf({ a: { type: 'string', 'x-mcp-header': '' } }), 'a', /non-empty string/],
    ['a name that is not a string', objectOf({ a: { type: 'string', 'x-mcp-header': 7 } }), 'a', /non-empty string/],
    ['a name with a space', objectOf({ a: { type: 'string', 'x-mcp-header': 'My Region' } }), 'a', /RFC 9110 token/],
    ['a name with a delimiter', objectOf({ a: { type: 'string', 'x-mcp-header': 'Region:1' } }), 'a', /RFC 9110 token/],
    ['the root', { type: 'object', 'x-mcp-header': 'Root' }, '<root>', /reached from the root/],
    ['an array item', objectOf({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), 'list.<items>', /reached from the root/],
    ['a combinator branch', objectOf({}, { anyOf: [objectOf({ a: { type: 'string', 'x-mcp-header': 'A' } })] }), '<anyOf>.a', /reached from the root/],
    ['additionalProperties', objectOf({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } }), '<additionalProperties>', /reached from the root/],
    ['$defs', objectOf({}, { $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }), '<$defs>', /reached from the root/],
  ])('%s', (_label, schema, property, reason) => {
    const err = caughtSync(() => scanParamHeaders('lookup', schema as JsonObject));
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain(`Tool "lookup": invalid x-mcp-header on property "${property}"`);
    expect(message).toMatch(reason);
  });

  it('names declared twice regardless of case', () => {
    const schema = objectOf({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } });
    expect(() => scanParamHeaders('dup', schema)).toThrow(/Tool "dup": invalid x-mcp-header on property "b": "REGION" is already declared as "Region"/);
  });
});

describe('decodeParamHeader', () => {
  it('passes a plain value as it is and decodes the Base64 form as UTF-8', () => {
    expect(decodeParamHeader('eu-west')).toBe('eu-west');
    expect(decodeParamHeader(`=?base64?${Buffer.from('Zürich ✓').toString('base64')}?=`)).toBe('Zürich ✓');
    expect(decodeParamHeader('=?base64??=')).toBe('');
  });

  it.each([
    ['unpadded', '=?base64?ZXU?='],
    ['not the alphabet', '=?base64?ZX-1?='],
    ['URL-safe alphabet', '=?base64?_w==?='],
    ['whitespace', '=?base64?ZXU= ?='],
    ['bytes that are not UTF-8', '=?base64?/w==?='],
  ])('refuses %s', (_label, value) => {
    expect(decodeParamHeader(value)).toBeUndefined();
  });
});

describe('findParamHeaderMismatch', () => {
  const decls = scanParamHeaders('t', objectOf({ n: { type: 'integer', 'x-mcp-header': 'N' }, s: { type: 'string', 'x-mcp-header': 'S' }, b: { type: 'boolean', 'x-mcp-header': 'B' } }));

  it('integers compare as numbers, other values as text', () => {
    expect(findParamHeaderMismatch(decls, { n: 42 }, { 'mcp-param-n': '42.0' })).toBeUndefined();
    expect(findParamHeaderMismatch(decls, { n: -3 }, { 'mcp-param-n': '-3' })).toBeUndefined();
    expect(findParamHeaderMismatch(decls, { n: 42 }, { 'mcp-param-n': '+42' })).toEqual({ header: 'Mcp-Param-N', body: 'the Mcp-Param-N header decodes to "+42" but the body carries n=42' });
    expect(findParamHeaderMismatch(decls, { s: '42' }, { 'mcp-param-s': '42.0' })).toMatchObject({ header: 'Mcp-Param-S' });
    expect(findParamHeaderMismatch(decls, { b: false }, { 'mcp-param-b': 'false' })).toBeUndefined();
  });

  it('quotes values up to 256 characters of their JSON', () => {
    const long = 's'.repeat(300);
    expect(findParamHeaderMismatch(decls, { s: long }, { 'mcp-param-s': 'x'.repeat(300) })?.body).toBe(
      `the Mcp-Param-S header decodes to "${'x'.repeat(255)}… (302 characters) but the body carries s="${'s'.repeat(255)}… (302 characters)`,
    );
  });

  it('absent, null and unmirrored body values expect no header', () => {
    expect(findParamHeaderMismatch(decls, {}, {})).toBeUndefined();
    expect(findParamHeaderMismatch(decls, { s: null, n: null }, undefined)).toBeUndefined();
    expect(findParamHeaderMismatch(decls, { s: { nested: true }, n: 2 ** 60 }, {})).toBeUndefined();
    expect(findParamHeaderMismatch(decls, 'not an object', {})).toBeUndefined();
  });

  it('reads only own keys of the arguments', () => {
    const inherited = Object.create({ s: 'from the prototype' }) as JsonObject;
    expect(findParamHeaderMismatch(decls, inherited, {})).toBeUndefined();
  });
});

describe('the registry refuses a tool with an invalid declaration', () => {
  const bad = tool('bad_header', { inputSchema: objectOf({ filter: { type: 'object', 'x-mcp-header': 'Filter' } }) });

  it('static tools: at construction', () => {
    expect(() => new Registry({ tools: [tool('fine'), bad] })).toThrow('Tool "bad_header": invalid x-mcp-header on property "filter"');
  });

  it('tools given as a function: at the first list and at every call', async () => {
    const reg = new Registry({ tools: () => [tool('fine'), bad] });
    await expect(reg.listTools(makeCtx())).rejects.toThrow('Tool "bad_header": invalid x-mcp-header on property "filter"');
    await expect(reg.findTool('fine', makeCtx())).rejects.toThrow(/bad_header/);
  });

  it('compiles each schema once', () => {
    const rules = new ParamHeaderRules();
    const t = tool('once', { inputSchema: objectOf({ r: { type: 'string', 'x-mcp-header': 'R' } }) });
    expect(rules.of(t)).toBe(rules.of({ ...t }));
  });
});
