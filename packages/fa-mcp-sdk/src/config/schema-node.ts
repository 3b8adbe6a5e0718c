/** The schema node type of the configuration schema and the helpers that walk it. */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The subset of JSON Schema (2020-12) the config tooling understands, plus the `x-` annotations. */
export interface SchemaNode {
  type?: JsonType | JsonType[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  required?: string[];
  items?: SchemaNode;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  /** Environment variables that set this leaf; the first one is canonical and wins when several are set. */
  'x-env'?: string[];
  /** The value is a secret: masked by `maskConfig`, never logged or shown in `/health`. */
  'x-secret'?: boolean;
  /** What the value must be, in words, for error messages and the reference page (instead of the one built from the keywords). */
  'x-expected'?: string;
  /** Any other JSON Schema keyword (passed through to ajv untouched). */
  [keyword: string]: unknown;
}

/** An integer setting with its default, lower (and optional upper) bound, description and environment variable. */
export function intSetting(def: number, minimum: number, description: string, env: string, maximum?: number): SchemaNode {
  return { type: 'integer', minimum, ...(maximum !== undefined ? { maximum } : {}), default: def, description, 'x-env': [env] };
}

// ---------------------------------------------------------------------------
// Helpers for walking a schema (shared by defaults, env mapping, masking, docs).
// ---------------------------------------------------------------------------

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A section is an object node with declared `properties`; it is walked into. Anything else is a leaf. */
export function isSection(node: SchemaNode): node is SchemaNode & { properties: Record<string, SchemaNode> } {
  return isPlainObject(node.properties);
}

/** Calls `visit` for every leaf of the schema, depth first, in declaration order. */
export function forEachLeaf(
  schema: SchemaNode,
  visit: (path: string[], node: SchemaNode) => void,
  prefix: string[] = [],
): void {
  if (!isSection(schema)) return;
  for (const [key, child] of Object.entries(schema.properties)) {
    const path = [...prefix, key];
    if (isSection(child)) forEachLeaf(child, visit, path);
    else visit(path, child);
  }
}

/** Dotted paths of every leaf. */
export function leafPaths(schema: SchemaNode): string[] {
  const out: string[] = [];
  forEachLeaf(schema, (path) => out.push(path.join('.')));
  return out;
}

/** The schema node describing the value at `path` (through properties, additionalProperties and items). */
export function schemaNodeAt(schema: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema;
  for (const segment of path) {
    if (!node) return undefined;
    const declared: SchemaNode | undefined = node.properties?.[segment];
    if (declared) node = declared;
    else if (isPlainObject(node.additionalProperties)) node = node.additionalProperties as SchemaNode;
    else if (node.items && /^\d+$/.test(segment)) node = node.items;
    else return undefined;
  }
  return node;
}

/** A fresh object holding every `default` of the schema. */
export function schemaDefaults(schema: SchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  forEachLeaf(schema, (path, node) => {
    if (node.default === undefined) return;
    let target = out;
    for (const segment of path.slice(0, -1)) {
      const next = target[segment];
      if (isPlainObject(next)) target = next;
      else target = target[segment] = {};
    }
    target[path[path.length - 1] as string] = structuredClone(node.default);
  });
  return out;
}

/** Human wording of what a node accepts, e.g. `integer between 0 and 65535`, `one of "http", "stdio"`. */
export function describeExpected(node: SchemaNode): string {
  if (node['x-expected'] !== undefined) return node['x-expected'];
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.const !== undefined) return `equal to ${JSON.stringify(node.const)}`;
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  let text = types.length ? types.join(' or ') : 'a valid value';
  if (types.includes('array') && node.items?.type) text = `array of ${describeExpected(node.items)}`;
  if (types.includes('object') && isPlainObject(node.additionalProperties) && !isSection(node)) {
    text = `object of ${describeExpected(node.additionalProperties as SchemaNode)}`;
  }
  const min = node.minimum ?? node.exclusiveMinimum;
  const max = node.maximum ?? node.exclusiveMaximum;
  const minOp = node.minimum !== undefined ? '>=' : '>';
  const maxOp = node.maximum !== undefined ? '<=' : '<';
  if (min !== undefined && max !== undefined && minOp === '>=' && maxOp === '<=') {
    text += ` between ${min} and ${max}`;
  } else {
    if (min !== undefined) text += ` ${minOp} ${min}`;
    if (max !== undefined) text += ` ${maxOp} ${max}`;
  }
  if (node.minLength !== undefined) text += ` of length >= ${node.minLength}`;
  if (node.maxLength !== undefined) text += ` of length <= ${node.maxLength}`;
  if (node.pattern !== undefined) text += ` matching /${node.pattern}/`;
  if (node.format !== undefined) text += ` in format "${node.format}"`;
  return text;
}
