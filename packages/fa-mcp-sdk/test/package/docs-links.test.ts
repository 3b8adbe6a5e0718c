/** Every relative link of the documentation and the READMEs resolves (file, and heading anchor). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { brokenLinks } from '../../../create-fa-mcp/test/md-links.js'; // shared with the generated-project check

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const PAGES = [
  ...readdirSync(join(ROOT, 'FA-MCP-SDK-DOC')).filter((f) => f.endsWith('.md')).map((f) => `FA-MCP-SDK-DOC/${f}`),
  'README.md',
  'packages/fa-mcp-sdk/README.md',
  'packages/create-fa-mcp/README.md',
  'scripts/bench/results.md',
  ...readdirSync(join(ROOT, 'examples')).map((d) => `examples/${d}/README.md`).filter((f) => existsSync(join(ROOT, f))),
];

it('every relative link in the docs and READMEs resolves', () => {
  expect(brokenLinks(ROOT, PAGES), 'fix or remove these links (page:line: target)').toEqual([]);
});
