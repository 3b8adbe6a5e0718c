/**
 * pgvector: the vector literal for parameters and its parser for results (the text
 * form `[1,0.5,-2e-7]` of `vector` and `halfvec`), and builders for a vector column, its
 * index and a nearest-neighbour search. The distance operator is the caller's
 * choice, checked against a whitelist: it is spliced into SQL, values are not.
 */
import { ValidationError } from '../core/errors.js';
import { quoteColumns, quoteIdent, quoteTable, tableParts, type TableRef } from './identifiers.js';
import type { SqlQuery } from './sql-builders.js';

/** The distance operators of pgvector and the index operator class of each. */
export const DISTANCE_OPERATORS = {
  '<->': { name: 'l2', opsClass: 'vector_l2_ops' },
  '<#>': { name: 'negative inner product', opsClass: 'vector_ip_ops' },
  '<=>': { name: 'cosine', opsClass: 'vector_cosine_ops' },
  '<+>': { name: 'l1', opsClass: 'vector_l1_ops' },
} as const;

export type DistanceOperator = keyof typeof DISTANCE_OPERATORS;

export function assertDistanceOperator(op: unknown): asserts op is DistanceOperator {
  if (typeof op !== 'string' || !Object.hasOwn(DISTANCE_OPERATORS, op)) {
    throw new ValidationError(`Unknown distance operator; use one of ${Object.keys(DISTANCE_OPERATORS).join(' ')}`, {
      field: 'operator',
      reason: 'not an allowed distance operator',
    });
  }
}

/** The text form of a vector parameter (`[1,2,3]`); numbers must be finite. */
export function toVectorSql(vector: readonly number[]): string {
  if (!Array.isArray(vector) || vector.length === 0 || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new ValidationError('A vector must be a non-empty array of finite numbers', { field: 'vector', reason: 'invalid vector' });
  }
  // Finite JS numbers print in a form pgvector's float parser reads (e.g. 0.25, 1e-7).
  return `[${vector.join(',')}]`;
}

/** A `vector` / `halfvec` value as PostgreSQL prints it (`[1,0.5,-2e-7]`) to numbers. */
export function fromVectorSql(text: string): number[] {
  if (text[0] !== '[' || text[text.length - 1] !== ']') throw new Error('Not the text form of a vector');
  const inner = text.slice(1, -1).trim();
  return inner === '' ? [] : inner.split(',').map((v) => Number.parseFloat(v));
}

function positiveInt(value: number, field: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ValidationError(`${field} must be an integer between 1 and ${max}`, { field, reason: 'out of range' });
  }
  return value;
}

export interface VectorColumnArgs {
  table: TableRef;
  column: string;
  dimensions: number;
}

export function addVectorColumnSql(args: VectorColumnArgs): string {
  const dims = positiveInt(args.dimensions, 'dimensions', 16_000);
  return `ALTER TABLE ${quoteTable(args.table)} ADD COLUMN IF NOT EXISTS ${quoteIdent(args.column, 'column')} vector(${dims})`;
}

export interface VectorIndexArgs {
  table: TableRef;
  column: string;
  /** Default hnsw. */
  method?: 'hnsw' | 'ivfflat';
  /** The operator the searches will use (the index only serves that one). Default `<->`. */
  operator?: DistanceOperator;
  /** Default `<table>_<column>_<method>_idx`. */
  indexName?: string;
  /** ivfflat: number of lists (default 100). */
  lists?: number;
  /** hnsw: max connections per layer (default 16). */
  m?: number;
  /** hnsw: candidate list size while building (default 64). */
  efConstruction?: number;
}

export function createVectorIndexSql(args: VectorIndexArgs): string {
  const method = args.method ?? 'hnsw';
  if (method !== 'hnsw' && method !== 'ivfflat') throw new ValidationError('Index method must be hnsw or ivfflat', { field: 'method', reason: 'invalid' });
  const operator = args.operator ?? '<->';
  assertDistanceOperator(operator);
  if (method === 'ivfflat' && operator === '<+>') throw new ValidationError('ivfflat has no L1 (<+>) operator class; use hnsw', { field: 'operator', reason: 'unsupported' });
  const name = args.indexName ?? `${tableParts(args.table).table}_${args.column}_${method}_idx`.slice(0, 63);
  const withClause =
    method === 'hnsw'
      ? `WITH (m = ${positiveInt(args.m ?? 16, 'm', 100)}, ef_construction = ${positiveInt(args.efConstruction ?? 64, 'efConstruction', 1000)})`
      : `WITH (lists = ${positiveInt(args.lists ?? 100, 'lists', 32_768)})`;
  const opsClass = DISTANCE_OPERATORS[operator].opsClass;
  return `CREATE INDEX IF NOT EXISTS ${quoteIdent(name, 'index')} ON ${quoteTable(args.table)} USING ${method} (${quoteIdent(args.column, 'column')} ${opsClass}) ${withClause}`;
}

export interface NearestArgs {
  table: TableRef;
  column: string;
  vector: readonly number[];
  operator?: DistanceOperator;
  /** Default 10, at most 1000. */
  limit?: number;
  /** Columns returned besides `distance`; default every column (`*`). */
  select?: readonly string[];
  /** Equality filters `{ column: value }` (null: IS NULL). */
  where?: Record<string, unknown>;
  /** Only rows closer than this. */
  maxDistance?: number;
}

/** `SELECT … , <column> <op> $1 AS distance … ORDER BY distance LIMIT n`. */
export function nearestSql(args: NearestArgs): SqlQuery {
  const operator = args.operator ?? '<->';
  assertDistanceOperator(operator);
  const limit = positiveInt(args.limit ?? 10, 'limit', 1000);
  const values: unknown[] = [toVectorSql(args.vector)];
  const distance = `${quoteIdent(args.column, 'column')} ${operator} $1`;
  const conditions: string[] = [];
  for (const [column, value] of Object.entries(args.where ?? {})) {
    if (value === null) {
      conditions.push(`${quoteIdent(column, 'column')} IS NULL`);
    } else {
      values.push(value);
      conditions.push(`${quoteIdent(column, 'column')} = $${values.length}`);
    }
  }
  if (args.maxDistance !== undefined) {
    if (!Number.isFinite(args.maxDistance)) throw new ValidationError('maxDistance must be a finite number', { field: 'maxDistance', reason: 'invalid' });
    values.push(args.maxDistance);
    conditions.push(`${distance} < $${values.length}`);
  }
  const select = args.select && args.select.length > 0 ? quoteColumns(args.select) : '*';
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { text: `SELECT ${select}, ${distance} AS distance FROM ${quoteTable(args.table)}${where} ORDER BY ${distance} LIMIT ${limit}`, values };
}
