/**
 * The example of FA-MCP-SDK-DOC/02-2-prompts-and-resources.md is
 * fixtures/docs-server.ts (the import path aside), and it behaves as the page
 * says on both protocol revisions: standard, parameterised and auth-only
 * prompts, completions, the built-in resources, the template, and the opt-in
 * subscription announced by notifyResourceUpdated.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { addChangelogLine, docsServer } from './fixtures/docs-server.js';

const DOC = new URL('../../../../FA-MCP-SDK-DOC/02-2-prompts-and-resources.md', import.meta.url);
const FIXTURE = new URL('./fixtures/docs-server.ts', import.meta.url);

function block(doc: string, after: string, lang: string): string {
  const start = doc.indexOf(`\`\`\`${lang}\n`, doc.indexOf(after));
  const end = doc.indexOf('\n```', start);
  return doc.slice(start + lang.length + 4, end + 1);
}

const targets: TestTarget[] = [
  { transport: 'http', era: '2025', label: 'http-session/2025' },
  { transport: 'http', era: '2026', label: 'http/2026' },
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('02-2 prompts and resources example', () => {
  it('the page shows the tested file', () => {
    const fixture = readFileSync(FIXTURE, 'utf8').replace("'../../../src/index.js'", "'fa-mcp-sdk'");
    expect(block(readFileSync(DOC, 'utf8'), '<!-- example: docs-server -->', 'typescript')).toBe(fixture);
  });

  describe.each(targets)('$label', (target) => {
    it('serves the prompts, completions, built-ins and the template as the page says', async () => {
      server = await startTestServer(docsServer, { target });
      const client = await server.connect();

      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toEqual(['style_guide', 'review_change', 'incident_summary', 'agent_brief', 'agent_prompt']);
      const style = await client.getPrompt({ name: 'style_guide' });
      expect(style.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write short sentences. Name the component first. Give one example per rule.' } }]);
      const review = await client.getPrompt({ name: 'review_change', arguments: { component: 'search', focus: 'security' } });
      expect(review.messages[0]?.content).toEqual({ type: 'text', text: 'Review the change to search, security first.' });
      await expect(client.getPrompt({ name: 'review_change', arguments: {} })).rejects.toMatchObject({ code: -32602, data: { field: 'component' } });
      // requireAuth: over HTTP without a credential the caller is not authenticated.
      await expect(client.getPrompt({ name: 'incident_summary' })).rejects.toMatchObject({ code: -32001 });

      const focus = await client.complete({ ref: { type: 'ref/prompt', name: 'review_change' }, argument: { name: 'focus', value: 'se' } });
      expect(focus.completion.values).toEqual(['security']);
      const variable = await client.complete({ ref: { type: 'ref/resource', uri: 'docs://components/{name}' }, argument: { name: 'name', value: 'b' } });
      expect(variable.completion.values).toEqual(['billing']);

      const uris = (await client.listResources()).resources.map((r) => r.uri);
      expect(uris).toEqual(expect.arrayContaining(['docs://changelog', 'project://version', 'use://auth', 'docs-server://agent/brief', 'docs-server://agent/prompt']));
      const version = await client.readResource({ uri: 'project://version' });
      expect(JSON.parse((version.contents[0] as { text: string }).text)).toMatchObject({ name: 'docs-server', version: '1.2.0', sdk: { name: 'fa-mcp-sdk' } });
      const brief = await client.readResource({ uri: 'docs-server://agent/brief' });
      expect((brief.contents[0] as { text: string }).text).toBe(docsServer.agentBrief);

      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toEqual(['docs://components/{name}']);
      const doc = await client.readResource({ uri: 'docs://components/search' });
      expect((doc.contents[0] as { text: string }).text).toBe('# search\n\nHow to use the search component.');

      const caps = client.getServerCapabilities();
      expect(caps?.resources).toEqual({ subscribe: true });
      expect(caps?.completions).toEqual({});
    });
  });

  it('a 2025-era subscriber receives the update addChangelogLine announces', async () => {
    server = await startTestServer(docsServer, { target: targets[0] as TestTarget });
    const updates: string[] = [];
    const client = await server.connect({}, (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)));
    await client.subscribeResource({ uri: 'docs://changelog' });
    await expect(addChangelogLine(server.handle, '1.2.1: auth tokens refresh')).resolves.toBe(1);
    await expect.poll(() => updates, { timeout: 5000 }).toEqual(['docs://changelog']);
    const changelog = await client.readResource({ uri: 'docs://changelog' });
    expect((changelog.contents[0] as { text: string }).text).toContain('- 1.2.1: auth tokens refresh');
  });

  it('on stdio without a token the local user passes requireAuth', async () => {
    server = await startTestServer(docsServer, { target: { transport: 'stdio', era: '2025', label: 'stdio/2025' } });
    const client = await server.connect();
    const summary = await client.getPrompt({ name: 'incident_summary' });
    expect(summary.messages[0]?.content).toEqual({ type: 'text', text: 'Summarise the open incidents for the local user.' });
  });
});
