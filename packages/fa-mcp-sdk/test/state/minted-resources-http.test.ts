/**
 * Minted resources end to end: a tool mints content with `mintResource()` and
 * returns the resource link; with `mcp.mintedResources.store: postgres` a
 * client of another instance reads it (either era), also after the minting
 * instance stopped; the memory store keeps it within its process; an unknown
 * or expired URI is -32602 with the URI in data (as for any resource); outside a
 * handler `handle.mintedResources` mints.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MCP_ERROR_CODES, mintResource, type McpServerData } from '../../src/index.js';
import { expectToolError } from '../../src/testing/index.js';
import { connectHttpClient, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('minted_http');
});
afterAll(async () => {
  await db?.drop();
});
afterEach(stopAllServers);

const data: McpServerData = {
  tools: [
    {
      name: 'make_report',
      description: 'Writes a CSV report and returns a link to it.',
      inputSchema: { type: 'object', properties: { rows: { type: 'integer' }, ttlMs: { type: 'integer' } } },
      handler: async ({ arguments: a }) => {
        const csv = ['n', ...Array.from({ length: (a.rows as number | undefined) ?? 3 }, (_, i) => String(i + 1))].join('\n');
        const link = await mintResource({ name: 'report.csv', mimeType: 'text/csv', text: csv, ...(a.ttlMs ? { ttlMs: a.ttlMs as number } : {}) });
        return { content: [{ type: 'text', text: 'The report is ready.' }, link] };
      },
    },
  ],
};

const minted = (store: 'memory' | 'postgres', extra: Record<string, unknown> = {}) => ({
  mcp: { mintedResources: { enabled: true, store, uriPrefix: 'reports://minted/', ...extra } },
  ...(store === 'postgres' ? { db: { postgres: { dbs: { main: { url: db.url, poolSize: 2 } } } } } : {}),
});

const linkOf = (result: { content: unknown }) => (result.content as Array<{ type: string; uri?: string }>).find((c) => c.type === 'resource_link');

describe('minted resources', () => {
  it('postgres: minted on A, read from B on either era, and still readable after A stopped', async () => {
    const [a, b] = await Promise.all([startTestServer(data, minted('postgres')), startTestServer(data, minted('postgres'))]);
    const onA = (await connectHttpClient(serverUrl(a), { era: '2025' })).client;
    const result = await onA.callTool({ name: 'make_report', arguments: { rows: 2 } });
    const link = linkOf(result);
    expect(link).toMatchObject({ type: 'resource_link', name: 'report.csv', mimeType: 'text/csv' });
    expect(link?.uri).toMatch(/^reports:\/\/minted\/[0-9a-f-]{36}\/report\.csv$/);
    await a.stop('done minting');

    for (const era of ['2025', '2026'] as const) {
      const onB = (await connectHttpClient(serverUrl(b), { era })).client;
      const read = await onB.readResource({ uri: link?.uri as string });
      expect(read.contents).toEqual([{ uri: link?.uri, mimeType: 'text/csv', text: 'n\n1\n2' }]);
    }
  });

  it('lists the minted template, and answers an unknown or expired URI with -32602 and the URI', async () => {
    const a = await startTestServer(data, minted('postgres'));
    const client = (await connectHttpClient(serverUrl(a), { era: '2025' })).client;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: 'reports://minted/{id}/{name}', name: 'minted_resource' }));
    await expectToolError(client.readResource({ uri: 'reports://minted/00000000-0000-0000-0000-000000000000/report.csv' }), MCP_ERROR_CODES.INVALID_PARAMS);
    // A minute of life cannot pass while the test runs, however busy the machine; the expiry is
    // reached by moving the clock (only Date is faked: timers, sockets and PostgreSQL run for real).
    const short = linkOf(await client.callTool({ name: 'make_report', arguments: { ttlMs: 60_000 } }));
    expect((await client.readResource({ uri: short?.uri as string })).contents).toHaveLength(1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 59_000, shouldAdvanceTime: true });
    try {
      expect((await client.readResource({ uri: short?.uri as string })).contents).toHaveLength(1);
      vi.setSystemTime(Date.now() + 2_000);
      const err = await expectToolError(client.readResource({ uri: short?.uri as string }), MCP_ERROR_CODES.INVALID_PARAMS);
      expect(err.data).toMatchObject({ uri: short?.uri });
    } finally {
      vi.useRealTimers();
    }
  });

  it('memory: readable on the minting instance only', async () => {
    const [a, b] = await Promise.all([startTestServer(data, minted('memory')), startTestServer(data, minted('memory'))]);
    const onA = (await connectHttpClient(serverUrl(a), { era: '2026' })).client;
    const link = linkOf(await onA.callTool({ name: 'make_report', arguments: {} }));
    expect((await onA.readResource({ uri: link?.uri as string })).contents[0]).toMatchObject({ text: 'n\n1\n2\n3' });
    const onB = (await connectHttpClient(serverUrl(b), { era: '2026' })).client;
    await expectToolError(onB.readResource({ uri: link?.uri as string }), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('mints from outside a handler through the handle; mintResource() outside a handler, or with the feature off, says what to do', async () => {
    const a = await startTestServer(data, minted('memory', { uriPrefix: '' }));
    const link = await a.mintedResources?.mint({ name: 'notes.md', text: '# Notes' });
    expect(link?.uri).toMatch(/^[a-z][a-z0-9+.-]*:\/\/minted\/[0-9a-f-]{36}\/notes\.md$/);
    const client = (await connectHttpClient(serverUrl(a), { era: '2025' })).client;
    expect((await client.readResource({ uri: link?.uri as string })).contents[0]).toMatchObject({ text: '# Notes' });
    await expect(mintResource({ name: 'x', text: 'y' })).rejects.toThrow(/mcp\.mintedResources\.enabled/);

    const off = await startTestServer(data);
    expect(off.mintedResources).toBeUndefined();
    const offClient = (await connectHttpClient(serverUrl(off), { era: '2025' })).client;
    await expectToolError(offClient.callTool({ name: 'make_report', arguments: {} }), MCP_ERROR_CODES.INTERNAL_ERROR);
  });
});
