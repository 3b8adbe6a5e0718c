/**
 * The example of FA-MCP-SDK-DOC/04-authentication.md is this folder's
 * fixtures/secured-server.ts (the import path aside), started with the YAML of
 * the page's quick start, and behaves as the page says.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import type { McpServerHandle } from '../../src/index.js';
import { startSecuredServer } from './fixtures/secured-server.js';
import { bearer, FIXTURES_DIR, rawPost, toolCall } from './helpers.js';

const DOC = new URL('../../../../FA-MCP-SDK-DOC/04-authentication.md', import.meta.url);
const FIXTURE = new URL('./fixtures/secured-server.ts', import.meta.url);

function block(doc: string, after: string, lang: string): string {
  const start = doc.indexOf(`\`\`\`${lang}\n`, doc.indexOf(after));
  const end = doc.indexOf('\n```', start);
  return doc.slice(start + lang.length + 4, end + 1);
}

describe('04-authentication example', () => {
  const doc = readFileSync(DOC, 'utf8');
  let server: McpServerHandle;

  it('the page shows the tested file', () => {
    const fixture = readFileSync(FIXTURE, 'utf8').replace("'../../../src/index.js'", "'fa-mcp-sdk'");
    expect(block(doc, '<!-- example: secured-server -->', 'typescript')).toBe(fixture);
  });

  beforeAll(async () => {
    const yaml = load(block(doc, '## Quick start', 'yaml')) as { webServer: { auth: Record<string, unknown> } };
    const auth = yaml.webServer.auth;
    server = await startSecuredServer({
      config: { webServer: { host: '127.0.0.1', port: 0, auth: { ...auth, publicUrl: '' } }, logger: { level: 'silent' }, mcp: { stateless: true, responseMode: 'json' } },
      cwd: FIXTURES_DIR,
      env: {},
      nodeEnv: 'test',
      handleSignals: false,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the quick-start client gets a token and reads, but may not delete', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', scope: 'reports:read' });
    const basicAuth = Buffer.from('reporting-bot:from-the-environment-please-0123456789').toString('base64');
    const tokenRes = await fetch(new URL('/oauth/token', server.url), { method: 'POST', headers: { authorization: `Basic ${basicAuth}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const read = await rawPost(server.url as string, '/mcp', toolCall('read_report', { id: 'r-1' }), bearer(token));
    expect(JSON.stringify(read.body)).toContain('"readBy\\":\\"reporting-bot\\"');
    const del = await rawPost(server.url as string, '/mcp', toolCall('delete_report', { id: 'r-1' }), bearer(token));
    expect(del.body.error).toMatchObject({ code: -32001, data: { error: 'insufficient_scope', scope: 'reports:write' } });
    const api = await fetch(new URL('/api/reports', server.url), { headers: bearer(token) });
    expect(await api.json()).toEqual({ reports: ['r-1'], for: 'reporting-bot' });
    expect((await fetch(new URL('/api/reports', server.url))).status).toBe(401);
  });
});
