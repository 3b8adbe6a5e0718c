/**
 * The tool surface is this server's public contract: test/contract/tools-list.json holds what
 * tools/list answers. A change to it is a change for every client, so this test fails until the
 * snapshot is updated on purpose (UPDATE_CONTRACT=1 npm test) and CHANGELOG.md says which version
 * bump it needs (see the table there: removing a tool or a property is MAJOR).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer } from 'fa-mcp-sdk/testing';
import { describe, expect, it } from 'vitest';
import { testInit, testServerData } from './helpers.js';

const SNAPSHOT = fileURLToPath(new URL('./contract/tools-list.json', import.meta.url));

describe('tool contract', () => {
  it('tools/list matches test/contract/tools-list.json', async () => {
    const server = await startTestServer(testServerData(), testInit);
    try {
      const client = await server.connect();
      const { tools } = await client.listTools();
      const surface = tools
        .map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({ name, title, description, inputSchema, outputSchema, annotations }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const text = `${JSON.stringify(surface, null, 2)}\n`;
      if (process.env.UPDATE_CONTRACT === '1') writeFileSync(SNAPSHOT, text);
      expect(text, 'the tool surface changed: review it, then run UPDATE_CONTRACT=1 npm test and record it in CHANGELOG.md').toBe(
        readFileSync(SNAPSHOT, 'utf8'),
      );
    } finally {
      await server.stop();
    }
  });
});
