/**
 * docs/tools.md says what this server answers (the initialize result, the instructions against
 * their budget, prompts, tools with schemas and annotations, resource templates), between the
 * markers of `fa-mcp contract docs`. This test fails when the server and the page differ:
 * regenerate the page on purpose with `npm run docs:tools` (or UPDATE_CONTRACT=1 npm test) and
 * commit it with the change.
 */
import { fileURLToPath } from 'node:url';
import { formatToolResult, type ITool } from 'fa-mcp-sdk';
import { checkSurfacePage, writeSurfacePage } from 'fa-mcp-sdk/testing';
import { describe, expect, it } from 'vitest';
import { testInit, testServerData } from './helpers.js';

const PAGE = fileURLToPath(new URL('../docs/tools.md', import.meta.url));
const options = { ...testInit, regenerate: 'npm run docs:tools' };

describe('docs/tools.md', () => {
  it('says what the server answers', async () => {
    if (process.env.UPDATE_CONTRACT === '1') await writeSurfacePage(testServerData(), PAGE, options);
    const result = await checkSurfacePage(testServerData(), PAGE, options);
    expect(result.ok, result.message).toBe(true);
  });

  it('no longer does once a tool is added without regenerating it', async () => {
    const data = testServerData();
    const extra: ITool = {
      name: 'added_without_docs',
      description: 'A tool the page does not list yet.',
      inputSchema: { type: 'object', properties: {} },
      handler: () => formatToolResult('ok'),
    };
    const result = await checkSurfacePage({ ...data, tools: [...(data.tools as ITool[]), extra] }, PAGE, options);
    expect(result.ok).toBe(false);
    expect(result.onlyInServer).toContain('### `added_without_docs`');
    expect(result.message).toContain('npm run docs:tools');
  });
});
