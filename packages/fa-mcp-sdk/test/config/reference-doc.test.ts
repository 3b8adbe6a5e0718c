import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema, forEachLeaf, renderConfigReference } from '../../src/config/index.js';

const DOC = fileURLToPath(new URL('../../../../FA-MCP-SDK-DOC/03-configuration-reference.md', import.meta.url));
const NOTE =
  '> Generated from the configuration schema (`packages/fa-mcp-sdk/src/config/schema.ts`); do not edit by hand. ' +
  'Regenerate with `UPDATE_DOCS=1 npx vitest run packages/fa-mcp-sdk/test/config/reference-doc.test.ts`.';

const rendered = renderConfigReference(configSchema, { preamble: NOTE });

describe('configuration reference', () => {
  it('has a row for every leaf key with its env variables and default', () => {
    forEachLeaf(configSchema, (path, node) => {
      const line = rendered.split('\n').find((l) => l.startsWith(`| \`${path.join('.')}\` |`));
      expect(line, path.join('.')).toBeDefined();
      for (const env of node['x-env'] ?? []) expect(line).toContain(`\`${env}\``);
      expect(line).toContain(JSON.stringify(node.default));
    });
    expect(rendered).toContain('| Key | Type | Default | Env | Description |');
    for (const section of ['mcp', 'webServer', 'logger']) expect(rendered).toContain(`## \`${section}\``);
  });

  it('matches the committed page (UPDATE_DOCS=1 rewrites it)', () => {
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOC, rendered);
      return;
    }
    expect(existsSync(DOC), `${DOC} is missing; run with UPDATE_DOCS=1`).toBe(true);
    expect(readFileSync(DOC, 'utf8')).toBe(rendered);
  });
});
