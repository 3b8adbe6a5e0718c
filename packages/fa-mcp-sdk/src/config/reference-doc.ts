/**
 * Markdown reference of every configuration key, rendered from the schema.
 */
import { describeExpected, forEachLeaf, isSection, type SchemaNode } from './schema.js';

export interface RenderReferenceOptions {
  /** Page title; default `Configuration reference`. */
  title?: string;
  /** Text placed right under the title (e.g. a "generated, do not edit" note). */
  preamble?: string;
}

function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function row(path: string, node: SchemaNode): string {
  const env = node['x-env']?.length ? node['x-env'].map(code).join(', ') : '—';
  const def = node.default === undefined ? '—' : code(JSON.stringify(node.default));
  const secret = node['x-secret'] === true ? '**Secret.** ' : '';
  const cells = [code(path), describeExpected(node), def, env, `${secret}${node.description ?? ''}`];
  return `| ${cells.map(cell).join(' | ')} |`;
}

function table(rows: string[]): string[] {
  return ['| Key | Type | Default | Env | Description |', '| --- | --- | --- | --- | --- |', ...rows];
}

/**
 * One table per top-level section (columns Key | Type | Default | Env | Description); top-level leaves
 * are gathered in a first "Top-level keys" table. Keys are shown as full dotted paths.
 */
export function renderConfigReference(schema: SchemaNode, options: RenderReferenceOptions = {}): string {
  const out: string[] = [`# ${options.title ?? 'Configuration reference'}`, ''];
  if (options.preamble) out.push(options.preamble, '');
  out.push(
    'Layers, later wins: built-in defaults < `config/default.yaml` < `config/<NODE_ENV>.yaml` < ' +
      '`config/local.yaml` < environment variables. When several env variables are listed, the first wins.',
    '',
    'Env values are coerced to the key type: booleans accept `true/false/1/0/yes/no`; arrays accept a ' +
      'comma-separated list or a JSON array; objects accept a JSON object.',
    '',
  );
  const properties = isSection(schema) ? schema.properties : {};
  const topLeaves = Object.entries(properties).filter(([, node]) => !isSection(node));
  if (topLeaves.length) {
    out.push('## Top-level keys', '', ...table(topLeaves.map(([key, node]) => row(key, node))), '');
  }
  for (const [key, node] of Object.entries(properties)) {
    if (!isSection(node)) continue;
    out.push(`## \`${key}\``, '');
    if (node.description) out.push(node.description, '');
    const rows: string[] = [];
    forEachLeaf(node, (path, leaf) => rows.push(row([key, ...path].join('.'), leaf)));
    out.push(...table(rows), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
