/**
 * JSON Schema validation of tool arguments and structured results: ajv with the
 * 2020-12 dialect and formats, each schema compiled once and cached by object.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormatsNs from 'ajv-formats';
import type { JsonObject } from './types.js';

type AddFormats = (ajv: Ajv2020) => unknown;
// ajv-formats ships CommonJS with `exports.default`; ESM and CJS builds see it at different depths.
const formatsNs = addFormatsNs as unknown as { default: AddFormats | { default: AddFormats } };
const addFormats: AddFormats = typeof formatsNs.default === 'function' ? formatsNs.default : formatsNs.default.default;

export interface ValidationIssue {
  field: string;
  reason: string;
}

export interface ValidationOutcome {
  ok: boolean;
  issues: ValidationIssue[];
}

export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new WeakMap<object, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
    addFormats(this.ajv);
  }

  /** Compiles (once per schema object) and returns the validate function; throws on a broken schema. */
  compile(schema: JsonObject): ValidateFunction {
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  validate(schema: JsonObject, value: unknown): ValidationOutcome {
    const fn = this.compile(schema);
    if (fn(value)) return { ok: true, issues: [] };
    return { ok: false, issues: (fn.errors ?? []).map(toIssue) };
  }
}

function toIssue(err: ErrorObject): ValidationIssue {
  const base = err.instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const params = err.params as Record<string, unknown>;
  if (err.keyword === 'required' && typeof params.missingProperty === 'string') {
    return { field: base ? `${base}.${params.missingProperty}` : params.missingProperty, reason: 'is required' };
  }
  const extra = err.keyword === 'additionalProperties' ? params.additionalProperty : err.keyword === 'unevaluatedProperties' ? params.unevaluatedProperty : undefined;
  if (typeof extra === 'string') {
    return { field: base ? `${base}.${extra}` : extra, reason: 'is not allowed' };
  }
  return { field: base || '(root)', reason: err.message ?? err.keyword };
}
