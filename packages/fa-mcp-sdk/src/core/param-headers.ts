/**
 * `x-mcp-header` (2026-07-28, SEP-2243): a tool's inputSchema may mark a
 * primitive property with `"x-mcp-header": "Region"`; a Streamable HTTP client
 * mirrors that argument into an `Mcp-Param-Region` header, and the server
 * refuses a call whose header is missing, malformed or disagrees with the body
 * (-32020, HTTP 400). The rules are the official SDK's, so a call is answered
 * alike whichever route serves it:
 *
 * - a declaration sits on a property reached from the root only through
 *   `properties` (not under items, additionalProperties, a combinator,
 *   if/then/else or $defs); its value is a non-empty RFC 9110 token, unique
 *   regardless of case, on a `string`, `integer` or `boolean` property;
 * - a body value that is absent or null expects no header (one sent is ignored);
 * - a header value `=?base64?<payload>?=` carries its value as canonical
 *   Base64 of UTF-8 text;
 * - integer values compare as numbers (`42` and `42.0` agree), booleans as
 *   `true`/`false`, the rest as text.
 *
 * The refusal says what disagrees in the SDK's words; a value is quoted up to
 * 256 characters of its JSON, so the answer stays small (and within what the
 * HTTP side reads for its status: transport/http/status-for-error.ts).
 *
 * A declaration that breaks the first rule makes the tool invalid: it is
 * refused where its name and schema are checked (registry.ts), naming the tool
 * and the property. Declarations are compiled once per inputSchema object.
 */
import type { ITool } from './types.js';

export interface ParamHeaderDeclaration {
  /** The property's path from the arguments' root. */
  path: readonly string[];
  /** The header as the protocol names it, e.g. `Mcp-Param-Region`. */
  header: string;
  /** The same, lower-cased: the key of the request context's `headers`. */
  key: string;
  type: 'string' | 'integer' | 'boolean';
}

/** What `data.mismatch` of the -32020 answer carries: the header and what about the body disagrees with it. */
export interface ParamHeaderMismatch {
  header: string;
  body: string;
}

const HEADER_PREFIX = 'Mcp-Param-';
const ANNOTATION = 'x-mcp-header';
/** RFC 9110 section 5.1 `token`: no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PERMITTED_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
/** Subschema keywords off the `properties` chain: an annotation under any of them is invalid. */
const OFF_CHAIN = ['items', 'prefixItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'patternProperties', 'dependentSchemas', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$defs', 'definitions'];
/** Those of them whose value maps names to subschemas. */
const NAMED_SUBSCHEMAS: ReadonlySet<string> = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const NONE: readonly ParamHeaderDeclaration[] = Object.freeze([]);

const pathText = (path: readonly string[]): string => (path.length === 0 ? '<root>' : path.join('.'));
/** Longest value quoted in a mismatch (the SDK quotes it whole: a long one would make a long error, sent twice). */
const MAX_QUOTED = 256;
const quoted = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length <= MAX_QUOTED ? text : `${text.slice(0, MAX_QUOTED)}… (${text.length} characters)`;
};
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** A tool whose inputSchema declares an `x-mcp-header` the protocol does not allow. */
export class InvalidParamHeaderError extends Error {
  constructor(tool: string, property: string, reason: string) {
    super(`Tool "${tool}": invalid x-mcp-header on property "${property}": ${reason}`);
    this.name = 'InvalidParamHeaderError';
  }
}

/** The declarations of one inputSchema; throws (naming `tool` and the property) when one breaks the rules. */
export function scanParamHeaders(tool: string, schema: unknown): readonly ParamHeaderDeclaration[] {
  const found: ParamHeaderDeclaration[] = [];
  const byLowerName = new Map<string, string>();
  const visit = (node: unknown, path: string[], onChain: boolean): void => {
    if (!isObject(node)) return;
    if (ANNOTATION in node) {
      const fail = (reason: string) => new InvalidParamHeaderError(tool, pathText(path), reason);
      if (!onChain || path.length === 0) {
        throw fail("only a property reached from the root through 'properties' alone may carry it (not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else or $defs)");
      }
      const name = node[ANNOTATION];
      if (typeof name !== 'string' || name === '') throw fail('its value must be a non-empty string');
      if (!TOKEN.test(name)) throw fail(`${JSON.stringify(name)} is not an RFC 9110 token (no spaces, control characters or delimiters)`);
      const type = typeof node.type === 'string' ? node.type : undefined;
      if (type === undefined || !PERMITTED_TYPES.has(type)) throw fail(`only a property of type string, integer or boolean may carry it; this one is ${type ?? 'of no single type'}`);
      const earlier = byLowerName.get(name.toLowerCase());
      if (earlier !== undefined) throw fail(`${JSON.stringify(name)} is already declared as ${JSON.stringify(earlier)} (header names are case-insensitive)`);
      byLowerName.set(name.toLowerCase(), name);
      const header = `${HEADER_PREFIX}${name}`;
      found.push({ path: [...path], header, key: header.toLowerCase(), type: type as ParamHeaderDeclaration['type'] });
    }
    const { properties } = node;
    if (isObject(properties)) for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], onChain);
    for (const keyword of OFF_CHAIN) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) && isObject(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false);
    }
  };
  visit(schema, [], true);
  return found.length === 0 ? NONE : found;
}

/** Declarations compiled once per inputSchema object (the registry holds one, as it holds its schema validator). */
export class ParamHeaderRules {
  private readonly compiled = new WeakMap<object, readonly ParamHeaderDeclaration[]>();

  /** The tool's declarations; throws InvalidParamHeaderError when one breaks the rules. */
  of(tool: ITool): readonly ParamHeaderDeclaration[] {
    const schema = tool.inputSchema as object | undefined;
    if (!isObject(schema)) return NONE;
    let declarations = this.compiled.get(schema);
    if (!declarations) {
      declarations = scanParamHeaders(tool.name, schema);
      this.compiled.set(schema, declarations);
    }
    return declarations;
  }
}

/** An argument value as its header carries it; undefined for a value no header mirrors (objects, non-finite or unsafe numbers). */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value !== 'number' || !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) return undefined;
  return String(value);
}

/** A header's value, its Base64 form decoded; undefined when that form is not canonical Base64 of UTF-8 text. */
export function decodeParamHeader(value: string): string | undefined {
  if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END)) return value;
  const payload = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The first declaration whose header is missing, malformed or disagrees with the arguments; undefined when all agree. */
export function findParamHeaderMismatch(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
  headers: Readonly<Record<string, string>> | undefined,
): ParamHeaderMismatch | undefined {
  for (const { path, header, key, type } of declarations) {
    const body = valueAt(args, path);
    if (body === undefined || body === null) continue;
    const bodyText = headerText(body);
    if (bodyText === undefined) continue;
    const where = `${pathText(path)}=${quoted(body)}`;
    const sent = headers && Object.hasOwn(headers, key) ? headers[key] : undefined;
    if (sent === undefined) return { header, body: `the body carries ${where} but the ${header} header is absent` };
    const decoded = decodeParamHeader(sent);
    if (decoded === undefined) return { header, body: `the ${header} header carries an invalid Base64 sentinel value` };
    const agrees = type === 'integer' && typeof body === 'number' && DECIMAL.test(decoded) ? Number(decoded) === body : decoded === bodyText;
    if (!agrees) return { header, body: `the ${header} header decodes to ${quoted(decoded)} but the body carries ${where}` };
  }
  return undefined;
}
