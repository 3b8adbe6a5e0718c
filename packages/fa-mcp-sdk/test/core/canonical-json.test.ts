/**
 * Compact canonical JSON (the bytes the audit trail hashes): members in UTF-16 order at every depth,
 * integer-like names included (RFC 8785), otherwise what JSON.stringify gives; the same text on the
 * native path (values already in order) and the member-by-member path.
 */
import { describe, expect, it } from 'vitest';
import { canonicalValue, compactCanonicalJson, stringifiesCanonically } from '../../src/core/canonical-json.js';

const slow = (v: unknown) => canonicalValue(v, '', []);

describe('compactCanonicalJson', () => {
  it('sorts members at every depth by UTF-16 code units, integer-like names too', () => {
    expect(compactCanonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(compactCanonicalJson({ 10: 'a', 9: 'b', x: 'c', '!': 'd' })).toBe('{"!":"d","10":"a","9":"b","x":"c"}');
    expect(compactCanonicalJson({ é: 1, z: 2, Z: 3 })).toBe('{"Z":3,"z":2,"é":1}');
  });

  it('gives what JSON.stringify gives for everything else', () => {
    const date = new Date('2025-01-02T03:04:05.006Z');
    expect(compactCanonicalJson({ when: date, n: Object(5), s: Object('x'), t: Object(true) })).toBe('{"n":5,"s":"x","t":true,"when":"2025-01-02T03:04:05.006Z"}');
    expect(compactCanonicalJson({ a: undefined, f: () => 1, s: Symbol('x'), arr: [undefined, () => 1, NaN, Infinity, -0] })).toBe('{"arr":[null,null,null,null,0]}');
    expect(compactCanonicalJson('quote " and \u2028')).toBe(JSON.stringify('quote " and \u2028'));
    expect(compactCanonicalJson(1e21)).toBe('1e+21');
    expect(() => compactCanonicalJson({ big: 1n })).toThrow(/BigInt/);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => compactCanonicalJson(cycle)).toThrow(/circular/);
    const shared = { x: 1 };
    expect(compactCanonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}'); // shared is not a cycle
  });

  it('takes the native path only where it gives the same text', () => {
    const values: unknown[] = [
      { a: 1, b: [true, null, 'x'], c: { d: 2 } },
      { b: 1, a: 2 },
      { 1: 'x', 2: 'y' },
      { a: new Date(0) },
      { a: NaN },
      { a: undefined, b: 1 },
      Object.create(null) as unknown,
      [{ b: 1, a: 1 }],
      { '': 1, a: 2 },
    ];
    for (const v of values) expect(compactCanonicalJson(v)).toBe(slow(v));
    expect(stringifiesCanonically({ a: 1, b: { c: [1, 'x'] } })).toBe(true);
    expect(stringifiesCanonically({ b: 1, a: 2 })).toBe(false);
    expect(stringifiesCanonically({ 1: 'x' })).toBe(false);
    expect(stringifiesCanonically({ a: new Date(0) })).toBe(false);
    expect(stringifiesCanonically({ a: Infinity })).toBe(false);
  });
});
