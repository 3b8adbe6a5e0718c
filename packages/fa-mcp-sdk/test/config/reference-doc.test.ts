/**
 * FA-MCP-SDK-DOC/03-configuration-reference.md is what `fa-mcp config docs` renders from the
 * schema: `fa-mcp config docs --check` passes on the committed page.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configDocs } from '../../src/cli/commands/config.js';
import { configSchema, forEachLeaf, renderConfigReference } from '../../src/config/index.js';
import { recordingIo } from '../devtools/cli-helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PAGE = 'FA-MCP-SDK-DOC/03-configuration-reference.md';

describe('configuration reference', () => {
  it('has a row for every leaf key with its env variables and default', () => {
    const rendered = renderConfigReference(configSchema);
    forEachLeaf(configSchema, (path, node) => {
      const line = rendered.split('\n').find((l) => l.startsWith(`| \`${path.join('.')}\` |`));
      expect(line, path.join('.')).toBeDefined();
      for (const env of node['x-env'] ?? []) expect(line).toContain(`\`${env}\``);
      expect(line).toContain(JSON.stringify(node.default));
    });
    expect(rendered).toContain('| Key | Type | Default | Env | Description |');
    for (const section of ['mcp', 'webServer', 'logger']) expect(rendered).toContain(`## \`${section}\``);
  });

  it(`fa-mcp config docs --check ${PAGE} passes (UPDATE_DOCS=1 rewrites the page)`, async () => {
    const io = recordingIo(ROOT);
    if (process.env.UPDATE_DOCS === '1') {
      expect(await configDocs(io, { out: PAGE })).toBe(0);
      return;
    }
    const code = await configDocs(io, { check: PAGE });
    expect(
      code,
      `${PAGE} is not what the schema renders. Regenerate it: \`pnpm run build && node packages/fa-mcp-sdk/dist/cli/index.js config docs --out ${PAGE}\` ` +
        `(or \`UPDATE_DOCS=1 pnpm exec vitest run packages/fa-mcp-sdk/test/config/reference-doc.test.ts\`)\n${io.stderr}`,
    ).toBe(0);
  });
});
