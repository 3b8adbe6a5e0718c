/**
 * SQL identifiers (schema, table, column, index names) are always quoted, never
 * interpolated raw: a hostile name becomes a strange but harmless identifier.
 */
import { ValidationError } from '../core/errors.js';

/** PostgreSQL silently truncates identifiers longer than this (NAMEDATALEN - 1), so they are refused. */
const MAX_IDENTIFIER_BYTES = 63;

/** A table, as `table`, `schema.table`, or an object when a name contains a dot. */
export type TableRef = string | { schema?: string; table: string };

function check(name: string, what: string): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new ValidationError(`Empty SQL ${what} name`, { reason: 'empty identifier' });
  }
  if (name.includes('\u0000')) throw new ValidationError(`SQL ${what} name contains a NUL character`, { reason: 'NUL in identifier' });
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new ValidationError(`SQL ${what} name is longer than ${MAX_IDENTIFIER_BYTES} bytes`, { reason: 'identifier too long' });
  }
  return name;
}

/** `"name"` with embedded double quotes doubled. */
export function quoteIdent(name: string, what = 'identifier'): string {
  return `"${check(name, what).replace(/"/g, '""')}"`;
}

/** Splits a table reference into its parts: `a.b` is schema `a`, table `b`. */
export function tableParts(ref: TableRef): { schema?: string; table: string } {
  if (typeof ref !== 'string') return ref.schema === undefined ? { table: ref.table } : { schema: ref.schema, table: ref.table };
  const dot = ref.indexOf('.');
  if (dot < 0) return { table: ref };
  if (ref.indexOf('.', dot + 1) >= 0) {
    throw new ValidationError('A table reference has at most one dot (schema.table); pass { schema, table } for names with dots', {
      reason: 'ambiguous table reference',
    });
  }
  return { schema: ref.slice(0, dot), table: ref.slice(dot + 1) };
}

/** `"schema"."table"` or `"table"`. */
export function quoteTable(ref: TableRef): string {
  const { schema, table } = tableParts(ref);
  return schema === undefined ? quoteIdent(table, 'table') : `${quoteIdent(schema, 'schema')}.${quoteIdent(table, 'table')}`;
}

/** A comma-separated list of quoted column names. */
export function quoteColumns(columns: readonly string[]): string {
  return columns.map((c) => quoteIdent(c, 'column')).join(', ');
}
