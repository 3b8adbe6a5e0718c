/**
 * loadConfig: built-in defaults < default.yaml < <NODE_ENV>.yaml < local.yaml < env vars < overrides,
 * validated against the schema with ajv. Every bad value is reported with its path and its layer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { CORE_SCHEMA, load as parseYaml, YAMLException } from 'js-yaml';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { envToConfig, type EnvSource } from './env-mapping.js';
import { displayValue } from './mask.js';
import {
  configSchema,
  describeExpected,
  isPlainObject,
  isSection,
  schemaDefaults,
  type AppConfig,
  type SchemaNode,
} from './schema.js';

import { requireCjs } from '../core/require-cjs.js';
import { RUNTIME_AJV_CODE } from '../core/schema-validator.js';
import { createConfigAjv } from './validator-setup.js';

export interface LoadConfigOptions {
  /** Folder holding the YAML files; default `<cwd>/config`. Relative paths resolve against `cwd`. */
  configDir?: string;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Selects `<configDir>/<nodeEnv>.yaml`; default `env.NODE_ENV ?? 'development'`. */
  nodeEnv?: string;
  /** Environment to read; default `process.env`. */
  env?: EnvSource;
  /** Highest layer, for tests and embedding (nested object, deep-merged). */
  overrides?: Record<string, unknown>;
  /**
   * JSON Schema of consumer-specific top-level keys, merged under the root `properties`: either a map
   * `{ key: schema }` or an object schema `{ type: 'object', properties: {...}, required?: [...] }`.
   * Its leaves may carry `default`, `x-env` and `x-secret` like the framework's own.
   */
  extraSchema?: Record<string, unknown>;
}

// Record<never, never> is the "no extra keys" default for consumers that declare none.
export interface LoadedConfig<TExtra extends object = Record<never, never>> {
  config: AppConfig & TExtra;
  /** Dotted leaf path -> layer that set it: 'default' | file path | 'env:VARNAME' | 'overrides'. */
  sources: Record<string, string>;
  nodeEnv: string;
}

interface MergeContext {
  layer: string;
  /** The whole schema (error messages mask values by their path in it). */
  schema: SchemaNode;
  sources: Record<string, string>;
  issues: ConfigIssue[];
}

const validatorCache = new WeakMap<SchemaNode, ValidateFunction>();

function compile(schema: SchemaNode): ValidateFunction {
  const cached = validatorCache.get(schema);
  if (cached) return cached;
  const validate = (schema === configSchema ? precompiled() : undefined) ?? compileNow(schema);
  validatorCache.set(schema, validate);
  return validate;
}

/**
 * The framework schema's validator compiled at build time (dist/config-validator.cjs), when it
 * was built from this very schema; compiling it here costs a start a few hundred milliseconds.
 */
function precompiled(): ValidateFunction | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const file = [join(here, 'config-validator.cjs'), join(here, '..', 'config-validator.cjs')].find((f) => existsSync(f));
  if (!file) return undefined;
  const mod = requireCjs<{ default?: ValidateFunction; schemaHash?: string }>(file);
  // node:crypto in place: loading it costs `import('fa-mcp-sdk')` a few ms (issue 24: import time)
  const { createHash } = requireCjs<typeof import('node:crypto')>('node:crypto');
  const hash = createHash('sha256').update(JSON.stringify(configSchema)).digest('hex');
  return mod.schemaHash === hash ? mod.default : undefined;
}

function compileNow(schema: SchemaNode): ValidateFunction {
  // ajv loads with the first configuration, not with the package (CommonJS, so required in place)
  const { Ajv2020 } = requireCjs<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  // ajv-formats' module.exports is the plugin (and its .default); typed under NodeNext as the module record
  const addFormats = requireCjs<typeof addFormatsModule>('ajv-formats').default;
  // No optimizer pass at run time: RUNTIME_AJV_CODE in core/schema-validator.ts says why.
  return createConfigAjv(Ajv2020, addFormats, { code: RUNTIME_AJV_CODE }).compile(schema);
}

/** The framework schema with the consumer's keys added under the root `properties`. */
export function buildSchema(extraSchema?: Record<string, unknown>): SchemaNode {
  if (!extraSchema) return configSchema;
  const asObjectSchema = extraSchema.type === 'object' && isPlainObject(extraSchema.properties);
  const extraProps = (asObjectSchema ? extraSchema.properties : extraSchema) as Record<string, SchemaNode>;
  const base = configSchema.properties ?? {};
  for (const key of Object.keys(extraProps)) {
    if (key in base) throw new Error(`extraSchema cannot redefine the framework key "${key}"`);
  }
  const { $id: _id, ...rest } = configSchema;
  const required = asObjectSchema && Array.isArray(extraSchema.required) ? (extraSchema.required as string[]) : [];
  return {
    ...rest,
    properties: { ...base, ...extraProps },
    ...(required.length ? { required: [...(configSchema.required ?? []), ...required] } : {}),
  };
}

function childSchema(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (!node) return undefined;
  const declared = node.properties?.[key];
  if (declared) return declared;
  return isPlainObject(node.additionalProperties) ? (node.additionalProperties as SchemaNode) : undefined;
}

function clearSources(sources: Record<string, string>, dotted: string): void {
  for (const key of Object.keys(sources)) {
    if (key === dotted || key.startsWith(`${dotted}.`)) delete sources[key];
  }
}

/**
 * Deep-merges `patch` into `target` (objects merge, everything else replaces) and records the layer of
 * each leaf in `ctx.sources`. A schema leaf (even an object one such as a map) is recorded as a whole;
 * keys outside the schema are recorded at each scalar/array value.
 */
function mergeLayer(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
  node: SchemaNode | undefined,
  path: string[],
  leafKey: string | undefined,
  ctx: MergeContext,
): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || key === '__proto__') continue;
    const childPath = [...path, key];
    const dotted = childPath.join('.');
    const child = leafKey ? undefined : childSchema(node, key);
    const childIsSection = child !== undefined && isSection(child);
    const declaredLeaf = !leafKey && child !== undefined && !childIsSection && node?.properties?.[key] === child;
    const childLeafKey = leafKey ?? (declaredLeaf ? dotted : undefined);
    // Nothing is recorded under a key the merge has not set yet (the whole first layer): no sources to clear.
    const wasSet = Object.hasOwn(target, key);
    if (isPlainObject(value)) {
      if (!isPlainObject(target[key])) {
        if (wasSet) clearSources(ctx.sources, dotted);
        target[key] = {};
      }
      mergeLayer(target[key] as Record<string, unknown>, value, child, childPath, childLeafKey, ctx);
      if (childLeafKey) ctx.sources[childLeafKey] = ctx.layer;
    } else if (childIsSection) {
      ctx.issues.push({
        path: dotted,
        message: `must be object (got ${displayValue(value, childPath, ctx.schema)} from ${ctx.layer})`,
      });
    } else {
      if (wasSet) clearSources(ctx.sources, dotted);
      // A scalar is its own copy; arrays (and anything else of a layer) are copied, so no layer shares them.
      target[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
      ctx.sources[childLeafKey ?? dotted] = ctx.layer;
    }
  }
}

function readYamlLayer(file: string, issues: ConfigIssue[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    issues.push({ path: '', message: `${file}: cannot be read: ${(err as Error).message}` });
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { filename: file, schema: CORE_SCHEMA });
  } catch (err) {
    if (err instanceof YAMLException) {
      const where = err.mark ? `:${err.mark.line + 1}:${err.mark.column + 1}` : '';
      const line = err.mark ? ` at line ${err.mark.line + 1}` : '';
      issues.push({ path: '', message: `${file}${where}: invalid YAML${line}: ${err.reason}` });
      return undefined;
    }
    throw err;
  }
  if (parsed === null || parsed === undefined) return undefined;
  if (!isPlainObject(parsed)) {
    issues.push({ path: '', message: `${file}: top level must be a mapping of keys` });
    return undefined;
  }
  return parsed;
}

/** The layer that set `dotted`, or the nearest ancestor / first descendant that has one. */
function findSource(sources: Record<string, string>, dotted: string): string | undefined {
  if (sources[dotted]) return sources[dotted];
  const parts = dotted.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const found = sources[parts.slice(0, i).join('.')];
    if (found) return found;
  }
  const descendant = Object.keys(sources).find((k) => k.startsWith(`${dotted}.`));
  return descendant ? sources[descendant] : undefined;
}

const DESCRIBED_KEYWORDS = new Set([
  'type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'format',
]);

function decodePointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function toIssue(error: ErrorObject, sources: Record<string, string>, schema: SchemaNode): ConfigIssue {
  const segments = decodePointer(error.instancePath);
  const parent = error.parentSchema as SchemaNode | undefined;
  let message: string;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    segments.push(extra);
    const allowed = Object.keys(parent?.properties ?? {}).join(', ');
    const where = segments.length > 1 ? `"${segments.slice(0, -1).join('.')}"` : 'the root';
    message = `unknown key (allowed under ${where}: ${allowed})`;
  } else if (error.keyword === 'required') {
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
    return { path: segments.join('.'), message: 'is required' };
  } else if (parent && DESCRIBED_KEYWORDS.has(error.keyword) && (parent.type || parent.enum || parent.const)) {
    message = `must be ${describeExpected(parent)} (got ${displayValue(error.data, segments, schema)}`;
  } else {
    message = `${error.message ?? 'is invalid'} (got ${displayValue(error.data, segments, schema)}`;
  }
  const dotted = segments.join('.');
  const layer = findSource(sources, dotted) ?? 'unknown layer';
  message = error.keyword === 'additionalProperties' ? `${message} (from ${layer})` : `${message} from ${layer})`;
  return { path: dotted, message };
}

/** Loads, merges and validates the configuration. Throws `ConfigError` listing every problem. */
export function loadConfig<TExtra extends object = Record<never, never>>(
  options: LoadConfigOptions = {},
): LoadedConfig<TExtra> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const configDir = resolve(cwd, options.configDir ?? 'config');
  const nodeEnv = options.nodeEnv ?? (env.NODE_ENV || 'development');
  const schema = buildSchema(options.extraSchema);

  if (!/^[\w-][\w.-]*$/.test(nodeEnv)) {
    throw new ConfigError([{ path: '', message: `NODE_ENV ${JSON.stringify(nodeEnv)} is not a usable file name` }]);
  }

  const merged: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const issues: ConfigIssue[] = [];
  const apply = (layer: string, patch: Record<string, unknown>): void =>
    mergeLayer(merged, patch, schema, [], undefined, { layer, schema, sources, issues });

  apply('default', schemaDefaults(schema));

  const fileNames = [...new Set(['default.yaml', `${nodeEnv}.yaml`, 'local.yaml'])];
  const readIssues: ConfigIssue[] = [];
  for (const name of fileNames) {
    const file = join(configDir, name);
    const layer = readYamlLayer(file, readIssues);
    if (layer) apply(file, layer);
  }
  if (readIssues.length) throw new ConfigError(readIssues, 'Cannot read configuration files');

  const fromEnv = envToConfig(schema, env);
  issues.push(...fromEnv.issues);
  // Record env sources per leaf (not per merged object) so every leaf names its own variable.
  for (const [dotted, layer] of Object.entries(fromEnv.sources)) {
    const path = dotted.split('.');
    let value: unknown = fromEnv.values;
    for (const segment of path) value = (value as Record<string, unknown>)[segment];
    const patch: Record<string, unknown> = {};
    let cursor = patch;
    for (const segment of path.slice(0, -1)) cursor = cursor[segment] = {};
    cursor[path[path.length - 1] as string] = value;
    apply(layer, patch);
  }

  if (options.overrides) apply('overrides', options.overrides);

  const validate = compile(schema);
  if (!validate(merged)) {
    // A path already reported while merging (e.g. an env value that did not coerce) is not reported twice.
    const reported = new Set(issues.map((i) => i.path));
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const issue = toIssue(error, sources, schema);
      const id = `${issue.path}\u0000${issue.message}`;
      if (seen.has(id) || reported.has(issue.path)) continue;
      seen.add(id);
      issues.push(issue);
    }
  }
  if (issues.length) throw new ConfigError(issues);

  return { config: merged as unknown as AppConfig & TExtra, sources, nodeEnv };
}
