/**
 * Canonical JSON: object keys sorted at every depth (by UTF-16 code units, as RFC 8785 does),
 * arrays kept in order, `undefined` properties left out. Two forms: a compact one whose bytes are
 * hashed (the audit trail) and an indented one with a final newline, so a committed snapshot
 * changes only where the surface changed (the contract).
 */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      if (child !== undefined) out[key] = sortKeys(child);
    }
    return out as T;
  }
  return value;
}

/** Indented canonical JSON with a final newline (snapshots). */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/**
 * Compact canonical JSON: the same value always gives the same bytes (hashes, signatures). Written
 * straight to the string, without a sorted copy of the value (the audit trail runs it for every
 * record): members in the UTF-16 order of their names (integer-like names too, as RFC 8785 does),
 * and otherwise what JSON.stringify gives (toJSON, boxed primitives, undefined, functions and
 * symbols left out of objects and null in arrays, non-finite numbers null, BigInt and cycles refused).
 */
export function compactCanonicalJson(value: unknown): string {
  if (stringifiesCanonically(value)) return JSON.stringify(value);
  return canonicalValue(value, '', []) ?? 'undefined';
}

/** The canonical JSON of one value, or undefined where JSON.stringify leaves the member out. */
export function canonicalValue(value: unknown, key: string, seen: object[]): string | undefined {
  let v = value;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(k: string): unknown }).toJSON(key);
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (v === null) return 'null';
  const obj = v as object;
  if (seen.includes(obj)) throw new TypeError('Converting circular structure to JSON');
  seen.push(obj);
  let out: string;
  if (Array.isArray(obj)) {
    out = '[';
    for (let i = 0; i < obj.length; i++) out += `${i === 0 ? '' : ','}${canonicalValue(obj[i], String(i), seen) ?? 'null'}`;
    out += ']';
  } else {
    out = '{';
    const names = Object.keys(obj);
    // most objects are built in order already: sorting is then skipped
    for (let i = 1; i < names.length; i++) {
      if ((names[i - 1] as string) > (names[i] as string)) {
        names.sort();
        break;
      }
    }
    for (const name of names) {
      const text = canonicalValue((obj as Record<string, unknown>)[name], name, seen);
      if (text !== undefined) out += `${out.length === 1 ? '' : ','}${JSON.stringify(name)}:${text}`;
    }
    out += '}';
  }
  seen.pop();
  return out;
}

/** Deep equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return compactCanonicalJson(a) === compactCanonicalJson(b);
}

/**
 * Whether JSON.stringify gives the canonical JSON of `value` as it stands: plain objects whose
 * members are in canonical order already (and none whose name starts with a digit or punctuation,
 * which JSON.stringify may put first), finite numbers, strings, booleans, null, arrays of those.
 * A walk without allocation (and at most 32 levels deep), so the audit trail can let the native
 * serializer do the work.
 */
export function stringifiesCanonically(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      // deeper than records go: the member-by-member path (which also refuses a cycle)
      if (depth > 32) return false;
      break;
    default:
      return false;
  }
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (!stringifiesCanonically(item, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let prev: string | undefined;
  for (const name in value as Record<string, unknown>) {
    if (!(name.charCodeAt(0) > 57) || (prev !== undefined && prev >= name)) return false;
    const child = (value as Record<string, unknown>)[name];
    if (child !== undefined && !stringifiesCanonically(child, depth + 1)) return false;
    prev = name;
  }
  return true;
}
