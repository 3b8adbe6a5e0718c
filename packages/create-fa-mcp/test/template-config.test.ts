/**
 * cli-template/config/default.yaml is generated from the fa-mcp-sdk schema plus the template's own
 * keys (src/custom-config.ts), so it lists every key with its comment. Regenerate it after a schema
 * change: UPDATE_TEMPLATE=1 npx vitest run packages/create-fa-mcp/test/template-config.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema, renderConfigYaml, type SchemaNode } from 'fa-mcp-sdk';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../src/render.js';
import { templateVars } from '../src/template-vars.js';
import { sampleAnswers, TEMPLATE_DIR, templateExtraSchema } from './helpers.js';

const FILE = join(TEMPLATE_DIR, 'config', 'default.yaml');

/** Keys whose value comes from an answer: dotted path -> placeholder (JSON-quoted ones take |json). */
const ANSWERED: Record<string, string> = {
  'webServer.port': '{{port}}',
  'mcp.transportType': '{{transport|json}}',
  'webServer.auth.enabled': '{{authEnabled}}',
  'db.postgres.dbs.main.embedded': '{{dbEmbedded}}',
};

function hasKey(schema: SchemaNode, path: string[]): boolean {
  let node: SchemaNode | undefined = schema;
  for (const segment of path) node = node?.properties?.[segment];
  return node !== undefined;
}

/** The generator's output, with the answers' placeholders where their values go. */
async function generatedTemplate(): Promise<string> {
  const extraSchema = await templateExtraSchema();
  const values: Record<string, unknown> = {};
  const marks: Array<[string, string]> = [];
  for (const [path, placeholder] of Object.entries(ANSWERED)) {
    const segments = path.split('.');
    if (!hasKey(configSchema, segments)) continue; // a key this SDK release does not have
    const mark = `@@${path}@@`;
    let node = values;
    for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
    node[segments[segments.length - 1] as string] = mark;
    marks.push([JSON.stringify(mark), placeholder]);
  }
  let text = renderConfigYaml(configSchema, { extraSchema, values });
  for (const [mark, placeholder] of marks) text = text.replace(`: ${mark}`, `: ${placeholder}`);
  return text;
}

describe('cli-template/config/default.yaml', () => {
  it('matches the generator (UPDATE_TEMPLATE=1 rewrites it)', async () => {
    const expected = await generatedTemplate();
    if (process.env.UPDATE_TEMPLATE === '1') writeFileSync(FILE, expected);
    expect(readFileSync(FILE, 'utf8'), 'regenerate with UPDATE_TEMPLATE=1 npx vitest run packages/create-fa-mcp/test/template-config.test.ts').toBe(expected);
  });

  it('once rendered, is exactly what the generated project re-generates from its own values', async () => {
    const answers = sampleAnswers({ port: 4555, transport: 'stdio' });
    const rendered = renderTemplate(readFileSync(FILE, 'utf8'), templateVars(answers, new Date()));
    const values = parseYaml(rendered) as { webServer: { port: number }; mcp: { transportType: string } };
    expect(values.webServer.port).toBe(4555);
    expect(values.mcp.transportType).toBe('stdio');
    expect(renderConfigYaml(configSchema, { extraSchema: await templateExtraSchema(), values })).toBe(rendered);
  });
});
