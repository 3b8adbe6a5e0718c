/**
 * `maskSensitive(value, rules)`: masks personal or confidential data in a value
 * a handler is about to return (or log), by property name, by path and by
 * text pattern. Returns a deep copy; the input is never changed.
 *
 * By default the secrets `maskSecrets` knows (the one rule of config/mask.ts: keys that
 * name a credential, `headers` maps, Bearer/Basic credentials, URL userinfo) are masked
 * too, whole and without `keepLast`; `secrets: false` turns that off.
 */
import { isSecretKey, MASK, maskSecretsInString } from '../config/mask.js';

/** Text patterns known by name. */
export const MASK_PATTERNS = {
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  /** Card numbers: 13–19 digits with optional spaces or dashes, checked with Luhn. */
  card: /\b\d(?:[ -]?\d){12,18}\b/g,
  /** Phone numbers written with a country code (`+44 20 …`) or an area code in parentheses (`(020) …`). */
  phone: /(?:\+\d{1,3}[ .-]?|\(\d{1,5}\)[ .-]?)\d[\d .-]{4,}\d/g,
  /** IBAN: country code, check digits, 11–30 alphanumerics (spaces allowed). */
  iban: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g,
  /** JSON Web Tokens. */
  jwt: /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  ipv4: /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/g,
} as const;

export type MaskPatternName = keyof typeof MASK_PATTERNS;

export interface IMaskRules {
  /** Property names whose values are masked wherever they appear (strings compare case-insensitively). */
  keys?: Array<string | RegExp>;
  /** Dotted paths whose values are masked; `*` matches one segment, array indexes are segments (`users.*.ssn`). */
  paths?: string[];
  /** Text patterns masked inside every string: names from MASK_PATTERNS or your own regular expressions. */
  patterns?: Array<MaskPatternName | RegExp>;
  /** Replacement text (default `***`). */
  mask?: string;
  /** Keep this many trailing characters of a masked string (e.g. 4 for card numbers). */
  keepLast?: number;
  /** Also mask what maskSecrets masks (default true). */
  secrets?: boolean;
}

const MAX_DEPTH = 32;

export function maskSensitive<T>(value: T, rules: IMaskRules = {}): T {
  const compiled = compile(rules);
  return walk(value, [], compiled, new WeakSet(), 0) as T;
}

interface Compiled {
  keyNames: Set<string>;
  keyRegexes: RegExp[];
  paths: string[][];
  patterns: Array<{ re: RegExp; luhn: boolean }>;
  mask: string;
  keepLast: number;
  secrets: boolean;
}

function compile(rules: IMaskRules): Compiled {
  const keyNames = new Set<string>();
  const keyRegexes: RegExp[] = [];
  for (const k of rules.keys ?? []) {
    if (typeof k === 'string') keyNames.add(k.toLowerCase());
    else keyRegexes.push(new RegExp(k.source, k.flags.replace('g', '')));
  }
  const patterns = (rules.patterns ?? []).map((p) => {
    if (typeof p === 'string') {
      const known = MASK_PATTERNS[p];
      if (!known) throw new TypeError(`maskSensitive: unknown pattern "${String(p)}"`);
      return { re: new RegExp(known.source, 'g'), luhn: p === 'card' };
    }
    return { re: new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`), luhn: false };
  });
  return {
    keyNames,
    keyRegexes,
    paths: (rules.paths ?? []).map((p) => p.split('.').filter((s) => s !== '')),
    patterns,
    mask: rules.mask ?? MASK,
    keepLast: Math.max(0, rules.keepLast ?? 0),
    secrets: rules.secrets !== false,
  };
}

function hide(value: unknown, c: Compiled): unknown {
  if (c.keepLast > 0 && (typeof value === 'string' || typeof value === 'number')) {
    const text = String(value);
    return text.length > c.keepLast ? `${c.mask}${text.slice(-c.keepLast)}` : c.mask;
  }
  return c.mask;
}

function keyMatches(key: string, c: Compiled): boolean {
  if (c.keyNames.has(key.toLowerCase())) return true;
  return c.keyRegexes.some((re) => re.test(key));
}

function pathMatches(path: string[], c: Compiled): boolean {
  return c.paths.some((p) => p.length === path.length && p.every((seg, i) => seg === '*' || seg === path[i]));
}

function maskString(text: string, c: Compiled): string {
  let out = c.secrets ? maskSecretsInString(text) : text;
  for (const { re, luhn } of c.patterns) {
    re.lastIndex = 0;
    out = out.replace(re, (match) => (luhn && !luhnValid(match) ? match : (hide(match, c) as string)));
  }
  return out;
}

function walk(value: unknown, path: string[], c: Compiled, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return maskString(value, c);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (value instanceof Date) return new Date(value.getTime());
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[Binary ${value.byteLength} bytes]`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        const p = [...path, String(i)];
        return pathMatches(p, c) ? hide(item, c) : walk(item, p, c, seen, depth + 1);
      });
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const p = [...path, key];
      // A secret keeps no trailing characters, whatever keepLast says.
      if (c.secrets && isSecretKey(key)) out[key] = c.mask;
      else out[key] = keyMatches(key, c) || pathMatches(p, c) ? hide(item, c) : walk(item, p, c, seen, depth + 1);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function luhnValid(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
