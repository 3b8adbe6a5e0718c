/**
 * Environment variables -> partial configuration, driven by the `x-env` annotation of each schema leaf.
 */
import type { ConfigIssue } from './config-error.js';
import { displayValue } from './mask.js';
import { describeExpected, forEachLeaf, isPlainObject, type JsonType, type SchemaNode } from './schema.js';

export type EnvSource = Record<string, string | undefined>;

export interface EnvMappingResult {
  /** Nested partial configuration holding only the keys set from the environment. */
  values: Record<string, unknown>;
  /** Dotted leaf path -> `env:VARNAME` of the variable that set it. */
  sources: Record<string, string>;
  /** Variables whose value could not be coerced to the schema type. */
  issues: ConfigIssue[];
}

export type CoerceResult = { ok: true; value: unknown } | { ok: false } | { ok: 'unset' };

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

function typesOf(node: SchemaNode): JsonType[] {
  if (Array.isArray(node.type)) return node.type;
  if (node.type) return [node.type];
  if (node.enum?.every((v) => typeof v === 'string')) return ['string'];
  return ['string'];
}

function coerceScalar(raw: string, type: JsonType): CoerceResult {
  const text = raw.trim();
  switch (type) {
    case 'string':
      return { ok: true, value: raw };
    case 'integer':
      return /^[+-]?\d+$/.test(text) ? { ok: true, value: Number(text) } : { ok: false };
    case 'number': {
      const n = text === '' ? Number.NaN : Number(text);
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false };
    }
    case 'null':
      return text === 'null' ? { ok: true, value: null } : { ok: false };
    case 'array':
    case 'object': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { ok: false };
      }
      if (type === 'array' ? Array.isArray(parsed) : isPlainObject(parsed)) return { ok: true, value: parsed };
      return { ok: false };
    }
  }
}

function coerceArray(raw: string, node: SchemaNode): CoerceResult {
  const text = raw.trim();
  if (text.startsWith('[')) return coerceScalar(text, 'array');
  const itemNode = node.items ?? {};
  const out: unknown[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const coerced = coerceValue(item, itemNode);
    if (coerced.ok !== true) return { ok: false };
    out.push(coerced.value);
  }
  return { ok: true, value: out };
}

/**
 * Coerces one env string to the type of `node`.
 * integer/number: numeric text; boolean: true/false/1/0/yes/no (any case); array: comma-separated
 * list (items coerced to the item type) or a JSON array; object: a JSON object.
 * An empty (or blank) value yields '' for strings and [] for arrays; for other types it counts as unset.
 */
export function coerceValue(raw: string, node: SchemaNode): CoerceResult {
  const types = typesOf(node);
  if (raw.trim() === '') {
    if (types.includes('string')) return { ok: true, value: raw };
    if (types.includes('array')) return { ok: true, value: [] };
    return { ok: 'unset' };
  }
  // Try the non-string types first so `['integer', 'string']` turns "42" into 42; string is the fallback.
  const ordered = [...types.filter((t) => t !== 'string'), ...types.filter((t) => t === 'string')];
  for (const type of ordered) {
    const result = type === 'array' ? coerceArray(raw, node) : coerceScalar(raw, type);
    if (result.ok === true) return result;
  }
  return { ok: false };
}

function setAtPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let cursor = target;
  for (const segment of path.slice(0, -1)) {
    const next = cursor[segment];
    if (isPlainObject(next)) cursor = next;
    else cursor = cursor[segment] = {};
  }
  cursor[path[path.length - 1] as string] = value;
}

/**
 * Reads every leaf's `x-env` variables from `env`. When several variables of a leaf are set,
 * the first listed (canonical) wins.
 */
export function envToConfig(schema: SchemaNode, env: EnvSource): EnvMappingResult {
  const result: EnvMappingResult = { values: {}, sources: {}, issues: [] };
  forEachLeaf(schema, (path, node) => {
    for (const name of node['x-env'] ?? []) {
      const raw = env[name];
      if (raw === undefined) continue;
      const coerced = coerceValue(raw, node);
      if (coerced.ok === 'unset') continue;
      const dotted = path.join('.');
      if (coerced.ok) {
        setAtPath(result.values, path, coerced.value);
        result.sources[dotted] = `env:${name}`;
      } else {
        result.issues.push({
          path: dotted,
          message: `must be ${describeExpected(node)} (got ${displayValue(raw, path, schema)} from env:${name})`,
        });
      }
      return;
    }
  });
  return result;
}
