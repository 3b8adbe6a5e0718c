/**
 * renderConfigYaml: a `config/default.yaml` rendered from the schema, every key preceded by a
 * comment with its description, the values it accepts and the environment variables that set it.
 * Values come from the schema defaults unless `values` supplies them, so rendering an existing
 * file's parsed content again refreshes its comments without losing its values.
 */
import { describeExpected, isPlainObject, isSection, type SchemaNode } from './schema.js';

export interface RenderConfigYamlOptions {
  /** The consumer's own top-level keys, in the form `LoadConfigOptions.extraSchema` accepts. */
  extraSchema?: Record<string, unknown>;
  /** Values written instead of the defaults (a nested object, e.g. the parsed current file). */
  values?: Record<string, unknown>;
  /** Comment lines at the top of the file, without the leading `# `. */
  header?: string[];
}

const DEFAULT_HEADER = [
  'Configuration defaults, rendered from the configuration schema of fa-mcp-sdk.',
  'Every key is listed with its description, the values it accepts and its environment variables.',
  'Layers, later wins: built-in defaults < this file < config/<NODE_ENV>.yaml < config/local.yaml',
  '< environment variables. Secrets belong in config/local.yaml or the environment, never here.',
];

const PLAIN_KEY = /^[A-Za-z_][\w-]*$/;

function yamlKey(key: string): string {
  return PLAIN_KEY.test(key) ? key : JSON.stringify(key);
}

/** JSON is a subset of YAML: one line, strings always quoted, so `"on"` or `"1"` stay strings. */
function yamlValue(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

const WIDTH = 100;

/** `# ` lines of `text`, wrapped at word boundaries to WIDTH columns. */
function comment(indent: string, text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
        out.push(`${indent}# ${line}`);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    out.push(`${indent}# ${line}`.trimEnd());
  }
  return out;
}

function leafComment(node: SchemaNode): string {
  const parts = [describeExpected(node)];
  if (node['x-env']?.length) parts.push(`env: ${node['x-env'].join(', ')}`);
  if (node['x-secret'] === true) parts.push('secret');
  return parts.join(' · ');
}

function renderProperties(
  properties: Record<string, SchemaNode>,
  values: Record<string, unknown> | undefined,
  depth: number,
  out: string[],
): void {
  const indent = '  '.repeat(depth);
  let previousWasSection = false;
  for (const [key, node] of Object.entries(properties)) {
    const value = values?.[key];
    // A blank line between top-level keys and around sections, never right under a section's key.
    const opensBlock = depth === 0 || isSection(node) || previousWasSection;
    if (out.length && opensBlock && !out[out.length - 1]?.endsWith(':')) out.push('');
    previousWasSection = isSection(node);
    if (node.description) out.push(...comment(indent, node.description));
    if (isSection(node)) {
      out.push(`${indent}${yamlKey(key)}:`);
      renderProperties(node.properties, isPlainObject(value) ? value : undefined, depth + 1, out);
      continue;
    }
    out.push(`${indent}# ${leafComment(node)}`);
    const chosen = value !== undefined ? value : node.default;
    out.push(chosen === undefined ? `${indent}# ${yamlKey(key)}: (no default)` : `${indent}${yamlKey(key)}: ${yamlValue(chosen)}`);
  }
  // Keys the schema does not describe are kept, so re-rendering a file never drops a value.
  for (const [key, value] of Object.entries(values ?? {})) {
    if (key in properties || value === undefined) continue;
    out.push('', `${indent}# Not described by the configuration schema.`, `${indent}${yamlKey(key)}: ${yamlValue(value)}`);
  }
}

/** Renders the YAML text of every key of `schema` (plus `extraSchema`), each with its comment. */
export function renderConfigYaml(schema: SchemaNode, options: RenderConfigYamlOptions = {}): string {
  const full = options.extraSchema ? mergeExtra(schema, options.extraSchema) : schema;
  const out: string[] = [];
  for (const line of options.header ?? DEFAULT_HEADER) out.push(...comment('', line));
  const body: string[] = [];
  renderProperties(isSection(full) ? full.properties : {}, options.values, 0, body);
  if (out.length) out.push('');
  out.push(...body);
  return `${out.join('\n').trimEnd()}\n`;
}

/** The consumer's keys added to `schema` the way `LoadConfigOptions.extraSchema` adds them. */
function mergeExtra(schema: SchemaNode, extraSchema: Record<string, unknown>): SchemaNode {
  const asObjectSchema = extraSchema.type === 'object' && isPlainObject(extraSchema.properties);
  const extra = (asObjectSchema ? extraSchema.properties : extraSchema) as Record<string, SchemaNode>;
  const base = schema.properties ?? {};
  for (const key of Object.keys(extra)) {
    if (key in base) throw new Error(`extraSchema cannot redefine the framework key "${key}"`);
  }
  return { ...schema, properties: { ...base, ...extra } };
}
