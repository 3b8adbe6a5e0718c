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

/** Compact canonical JSON: the same value always gives the same bytes (hashes, signatures). */
export function compactCanonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Deep equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return compactCanonicalJson(a) === compactCanonicalJson(b);
}
