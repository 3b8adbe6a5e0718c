/**
 * Deep-copy masking of secrets for values that are about to be logged or
 * returned to a caller (health check errors, config dumps, tool arguments).
 *
 * - A property whose key looks secret (authorization, cookie, pass/password,
 *   secret, token, api key, private key) is replaced with '***' whatever its value.
 * - Inside every string, `Bearer xxx` / `Basic xxx` credentials and the password
 *   part of `scheme://user:password@host` URLs are replaced with '***'.
 *
 * The input is never mutated. Cycles become '[Circular]', very deep nesting
 * becomes '[Truncated]', so the function is safe on arbitrary objects.
 */

export const MASK = '***';

const SECRET_KEY = /authorization|cookie|pass(word)?|secret|token|api[-_]?key|private[-_]?key/i;
const AUTH_SCHEME_CREDENTIALS = /\b(Bearer|Basic)(\s+)[A-Za-z0-9\-._~+/]+=*/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+):[^\s@/]+@/gi;
const MAX_DEPTH = 32;

/** True when a property name should have its value hidden. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Masks credentials that appear inside free text. */
export function maskSecretsInString(text: string): string {
  return maskUrlCredentials(text.replace(AUTH_SCHEME_CREDENTIALS, `$1$2${MASK}`));
}

/** Masks the password of `scheme://user:password@host` URLs inside free text. */
export function maskUrlCredentials(text: string): string {
  return text.includes('://') ? text.replace(URL_PASSWORD, `$1:${MASK}@`) : text;
}

/**
 * maskUrlCredentials on every string inside `value` (property names are left
 * alone), copying only what changes: a value without such a URL comes back as
 * the same object. Only arrays and plain objects are entered; errors, dates and
 * other instances stay as they are (the logger serializes errors first).
 */
export function maskUrlCredentialsDeep<T>(value: T): T {
  return urlMasked(value, new WeakSet<object>(), 0) as T;
}

function urlMasked(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH || seen.has(value)) return value;
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!isArray && proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  try {
    let copy: Record<string, unknown> | unknown[] | undefined;
    const source = value as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const item = source[key];
      const masked = urlMasked(item, seen, depth + 1);
      if (masked === item) continue;
      copy ??= isArray ? [...(value as unknown[])] : { ...source };
      (copy as Record<string, unknown>)[key] = masked;
    }
    return copy ?? value;
  } finally {
    seen.delete(value);
  }
}

/** Returns a masked deep copy of `value`; the input is left untouched. */
export function maskSecrets(value: unknown): unknown {
  return maskValue(value, new WeakSet<object>(), 0);
}

function maskValue(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return maskSecretsInString(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (value instanceof Date) return new Date(value.getTime());
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return `[Binary ${value.byteLength} bytes]`;
  }

  seen.add(value);
  try {
    const next = depth + 1;
    if (Array.isArray(value)) {
      return value.map((item) => maskValue(item, seen, next));
    }
    if (value instanceof Map) {
      const copy = new Map<unknown, unknown>();
      for (const [k, v] of value) {
        copy.set(k, typeof k === 'string' && isSecretKey(k) ? MASK : maskValue(v, seen, next));
      }
      return copy;
    }
    if (value instanceof Set) {
      return new Set([...value].map((item) => maskValue(item, seen, next)));
    }
    return maskRecord(value, seen, next);
  } finally {
    seen.delete(value);
  }
}

function maskRecord(value: object, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  if (value instanceof Error) {
    // name, message and stack are not enumerable: carry them over explicitly.
    copy.name = value.name;
    copy.message = maskSecretsInString(value.message);
    if (value.stack !== undefined) copy.stack = maskSecretsInString(value.stack);
  }
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretKey(key) ? MASK : maskValue(item, seen, depth);
  }
  return copy;
}
