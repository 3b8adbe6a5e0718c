/**
 * Secret masking: a copy of the configuration that is safe to log or show in `/health`.
 */
import { isPlainObject, type SchemaNode } from './schema.js';

export const MASK = '***';

/** Key names treated as secrets whatever the schema says. */
export const SECRET_KEY_PATTERN = /pass(word)?|secret|token|key$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY_PATTERN.test(key);
}

function childNode(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (!node) return undefined;
  const declared = node.properties?.[key];
  if (declared) return declared;
  return isPlainObject(node.additionalProperties) ? (node.additionalProperties as SchemaNode) : undefined;
}

function maskValue(value: unknown, node: SchemaNode | undefined): unknown {
  if (node?.['x-secret'] === true && value !== undefined) return MASK;
  if (Array.isArray(value)) return value.map((item) => maskValue(item, node?.items));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = isSecretKey(key) && child !== undefined ? MASK : maskValue(child, childNode(node, key));
    }
    return out;
  }
  return value;
}

/**
 * Returns a deep copy of `config` in which every value marked `x-secret` in `schema`, and every value
 * whose key name looks secret (password, secret, token, ...key), is replaced by `'***'`.
 */
export function maskConfig<T>(config: T, schema: SchemaNode): T {
  return maskValue(config, schema) as T;
}

/** How a value is quoted in error messages: JSON, unless the key is a secret. */
export function displayValue(value: unknown, node: SchemaNode | undefined, key: string | undefined): string {
  if (node?.['x-secret'] === true || (key !== undefined && isSecretKey(key))) return 'a hidden value';
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
