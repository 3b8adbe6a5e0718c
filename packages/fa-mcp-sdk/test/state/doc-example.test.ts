/**
 * The shared-state example of FA-MCP-SDK-DOC/02-5-tasks-and-state.md is this
 * folder's fixtures/shared-state-server.ts (the import path aside); started
 * twice with the page's YAML on one database, it behaves as the page says: a
 * report minted on one instance is read on the other, a change announced on
 * one reaches a subscriber of the other, and the rate budget is shared.
 */
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/index.js';
import { connectHttpClient, serverUrl, stopAllServers, waitFor } from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { startReportServer } from './fixtures/shared-state-server.js';

const DOC = new URL('../../../../FA-MCP-SDK-DOC/02-5-tasks-and-state.md', import.meta.url);
const FIXTURE = new URL('./fixtures/shared-state-server.ts', import.meta.url);

function block(doc: string, after: string, lang: string): string {
  const start = doc.indexOf(`\`\`\`${lang}\n`, doc.indexOf(after));
  const end = doc.indexOf('\n```', start);
  return doc.slice(start + lang.length + 4, end + 1);
}

const doc = readFileSync(DOC, 'utf8');
let db: TestSchema;
const servers: Array<Awaited<ReturnType<typeof startReportServer>>> = [];

beforeAll(async () => {
  db = await createTestSchema('state_doc');
});
afterAll(async () => {
  await stopAllServers();
  await Promise.all(servers.map((s) => s.handle.stop('test done')));
  await db?.drop();
});

describe('02-5 shared-state example', () => {
  it('the page shows the tested file', () => {
    const fixture = readFileSync(FIXTURE, 'utf8').replace("'../../../src/index.js'", "'fa-mcp-sdk'");
    expect(block(doc, '<!-- example: shared-state-server -->', 'typescript')).toBe(fixture);
  });

  it('runs as the page says on two instances with the page\'s configuration', async () => {
    const yaml = load(block(doc, '## Shared state beyond tasks', 'yaml')) as { mcp: Record<string, unknown>; db: { postgres: { dbs: { main: { url: string } } } } };
    yaml.db.postgres.dbs.main.url = db.url; // the test database instead of db.internal
    const config = { ...yaml, webServer: { host: '127.0.0.1', port: 0 }, logger: { level: 'silent' } };
    expect(loadConfig({ cwd: '/nonexistent', env: {}, overrides: config }).config.mcp.mintedResources).toMatchObject({ enabled: true, store: 'postgres', ttlMs: 600_000 });
    const start = () => startReportServer({ config, handleSignals: false, cwd: '/nonexistent', env: {}, nodeEnv: 'test' });
    const [a, b] = [await start(), await start()];
    servers.push(a, b);

    const onA = (await connectHttpClient(serverUrl(a.handle), { era: '2026' })).client;
    const exported = await onA.callTool({ name: 'export_report', arguments: { year: 2024 } });
    const link = (exported.content as Array<{ type: string; uri?: string }>).find((c) => c.type === 'resource_link');
    expect(link?.uri).toMatch(/:\/\/minted\/[0-9a-f-]{36}\/sales-2024\.csv$/);

    const updates: string[] = [];
    const onB = (
      await connectHttpClient(serverUrl(b.handle), {
        era: '2025',
        setup: (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)),
      })
    ).client;
    expect((await onB.readResource({ uri: link?.uri as string })).contents).toEqual([{ uri: link?.uri, mimeType: 'text/csv', text: 'year,total\n2024,42\n' }]);
    await onB.subscribeResource({ uri: 'reports://latest' });
    expect(await a.reportChanged()).toBe(0); // nobody on A subscribed
    await waitFor(() => updates.length > 0, 5_000, 'the update on B');
    expect(updates).toEqual(['reports://latest']);

    const { rows } = await db.pool.query<{ key: string; points: number }>('SELECT key, points FROM fa_mcp_rate_limits');
    // tools/call on A, resources/read and resources/subscribe on B: every request after the handshake counts, in the shared table
    expect(rows).toEqual([{ key: 'mcp:ip:127.0.0.1', points: 3 }]);
  });
});
