/**
 * Path and query parameters arrive as strings; this turns them into the types
 * their JSON Schema declares (integer, number, boolean, array of those) before
 * validation. Anything that does not convert is left as is, so validation
 * reports it.
 */
import type { JsonObject } from '../core/types.js';

export function coerceBySchema(schema: JsonObject | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  const props = (schema?.properties ?? {}) as Record<string, JsonObject>;
  for (const [key, prop] of Object.entries(props)) {
    if (!(key in out)) continue;
    const value = out[key];
    if (prop.type === 'array') {
      const items = (prop.items ?? {}) as JsonObject;
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
      out[key] = list.map((v) => coerceScalar(v, items.type));
    } else {
      out[key] = coerceScalar(value, prop.type);
    }
  }
  return out;
}

function coerceScalar(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (type) {
    case 'integer':
      return /^[+-]?\d+$/.test(value) ? Number(value) : value;
    case 'number': {
      const n = value.trim() === '' ? Number.NaN : Number(value);
      return Number.isFinite(n) ? n : value;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return value;
  }
}
