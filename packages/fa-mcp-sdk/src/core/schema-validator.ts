/**
 * JSON Schema validation of tool arguments and structured results: ajv with the
 * 2020-12 dialect and formats, each schema compiled once and cached by object.
 * ajv itself is loaded with the first compile: loading it costs a stdio start
 * about a fifth of its time before the first tools/list (issue 24: cold start).
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { requireCjs } from './require-cjs.js';
import type { JsonObject } from './types.js';

type AddFormats = (ajv: Ajv2020) => unknown;

function createAjv(): Ajv2020 {
  const { Ajv2020: AjvClass } = requireCjs<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  // ajv-formats is CommonJS with `exports.default` (and the function itself as module.exports)
  const formats = requireCjs<AddFormats | { default: AddFormats }>('ajv-formats');
  const addFormats = typeof formats === 'function' ? formats : formats.default;
  const ajv = new AjvClass({ allErrors: true, strict: false, validateSchema: false, code: RUNTIME_AJV_CODE });
  addFormats(ajv);
  return ajv;
}

/**
 * ajv's code options for schemas compiled while the process serves (tool schemas here, the
 * consumer's configuration schema in config/loader.ts). No optimizer pass: it counts the names
 * of every generated variable in a plain object per code node (`{ err0: 1 }`, `{ _errs3: 1 }`,
 * `{ data12: 1 }`, ...), and ajv keeps them. Each of those objects gives V8's shared empty-object
 * shape one more transition; past V8's limit (1,536) every object later built from `{}` with a
 * new first key (parsed JSON-RPC bodies, request contexts, node's own nextTick records) gets a
 * shape of its own, every time. That made each call several times dearer and had its objects
 * survive into the old generation (page 07, "Benchmark"). The optimizer only drops unused
 * variables from the generated code: validation is the same without it.
 */
export const RUNTIME_AJV_CODE = { optimize: false } as const;

export interface ValidationIssue {
  field: string;
  reason: string;
}

export interface ValidationOutcome {
  ok: boolean;
  issues: ValidationIssue[];
}

export class SchemaValidator {
  private ajv: Ajv2020 | undefined;
  private readonly cache = new WeakMap<object, ValidateFunction>();

  /** Compiles (once per schema object) and returns the validate function; throws on a broken schema. */
  compile(schema: JsonObject): ValidateFunction {
    let fn = this.cache.get(schema);
    if (!fn) {
      this.ajv ??= createAjv();
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** True once `schema` is compiled (the registry compiles some at start, the rest on first use). */
  isCompiled(schema: JsonObject): boolean {
    return this.cache.has(schema);
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
