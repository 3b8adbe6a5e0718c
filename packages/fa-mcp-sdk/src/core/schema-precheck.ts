/**
 * Whether a tool's JSON Schema may be compiled later (on first use) without changing what a start
 * reports: true only for a schema built from keywords whose compilation cannot fail, each with a
 * value of the kind ajv expects (a type name, a number, a regex that compiles...). Anything else
 * ($ref, $id, $defs, conditionals, an unknown keyword or format, a value of the wrong kind) answers
 * false and is compiled at start as before, so a broken schema stops the start with ajv's own
 * message. Loading ajv and compiling costs a stdio start about a quarter of its time (issue 24).
 */
import type { JsonObject } from './types.js';

/** 2020-12 is the dialect ajv compiles tool schemas in (schema-validator.ts); another `$schema` is left to ajv. */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
/** Formats of ajv-formats (test/core/schema-precheck.test.ts holds that each is one); another is left to ajv. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(['date', 'time', 'date-time', 'duration', 'uri', 'uri-reference', 'url', 'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid']);
const NUMBER_KEYWORDS = new Set([
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties',
]);
/** Annotations: ajv compiles no code for them, whatever their value. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyArray = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

function compilesRegex(source: unknown): boolean {
  if (typeof source !== 'string') return false;
  try {
    new RegExp(source, 'u'); // ajv's default (unicodeRegExp)
    return true;
  } catch {
    return false;
  }
}

function isTypeValue(v: unknown): boolean {
  if (typeof v === 'string') return TYPES.has(v);
  return nonEmptyArray(v) && new Set(v).size === v.length && v.every((t) => typeof t === 'string' && TYPES.has(t));
}

function keywordIsSafe(key: string, value: unknown, depth: number): boolean {
  if (ANNOTATIONS.has(key)) return true;
  if (NUMBER_KEYWORDS.has(key)) return typeof value === 'number' && Number.isFinite(value);
  switch (key) {
    case '$schema':
      return depth === 0 && value === DIALECT;
    case '$comment':
      return typeof value === 'string';
    case 'type':
      return isTypeValue(value);
    case 'enum':
      return nonEmptyArray(value);
    case 'const':
      return true;
    case 'required':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'uniqueItems':
      return typeof value === 'boolean';
    case 'pattern':
      return compilesRegex(value);
    case 'format':
      return typeof value === 'string' && KNOWN_FORMATS.has(value);
    case 'properties':
      return isObject(value) && Object.values(value).every((s) => subschemaIsSafe(s, depth));
    case 'items':
    case 'additionalProperties':
    case 'not':
      return subschemaIsSafe(value, depth);
    case 'prefixItems':
    case 'anyOf':
    case 'oneOf':
    case 'allOf':
      return nonEmptyArray(value) && value.every((s) => subschemaIsSafe(s, depth));
    default:
      return false;
  }
}

/** Deeper than this, the schema is compiled at start (no recursion without a bound). */
const MAX_DEPTH = 32;

function subschemaIsSafe(schema: unknown, depth: number): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isObject(schema) || depth >= MAX_DEPTH) return false;
  return Object.entries(schema).every(([key, value]) => keywordIsSafe(key, value, depth + 1));
}

/** True when compiling `schema` later cannot fail where compiling it now would (see above). */
export function compilesLater(schema: JsonObject): boolean {
  return isObject(schema) && Object.entries(schema).every(([key, value]) => keywordIsSafe(key, value, 0));
}
