/**
 * The example end to end over Streamable HTTP with the official client, on the
 * embedded database in memory (nothing installed, nothing left behind).
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerHandle } from 'fa-mcp-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSIONS, embed } from '../src/embedding.js';
import { createSearchServer } from '../src/server.js';
import { assertSdkBuildIsCurrent } from '../../../scripts/test-kit/sdk-build.mjs';

// These tests run the built fa-mcp-sdk (its package exports point at dist/): a stale build would prove old code.
beforeAll(assertSdkBuildIsCurrent);

let server: McpServerHandle;
let client: Client;

beforeAll(async () => {
  server = await createSearchServer({
    handleSignals: false,
    config: { webServer: { port: 0 }, logger: { level: 'silent' }, db: { postgres: { dbs: { main: { embeddedDataDir: '' } } } } },
  });
  client = new Client({ name: 'pgvector-search-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await server?.stop('test finished');
});

type Structured = Record<string, unknown>;
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as Structured;

const corpus = [
  { id: 'pg', title: 'PostgreSQL indexes', text: 'B-tree, hash, GIN and GiST indexes speed up PostgreSQL queries.' },
  { id: 'vec', title: 'Vector search', text: 'pgvector stores embeddings and finds nearest neighbours with hnsw or ivfflat indexes.' },
  { id: 'bread', title: 'Sourdough bread', text: 'Flour, water, salt and a lively starter make a crusty sourdough loaf.' },
];

describe('pgvector-search example', () => {
  it('runs on the embedded database with no setup', () => {
    expect(server.db.main.embedded).toBe(true);
  });

  it('stores documents and finds the closest one by text', async () => {
    for (const doc of corpus) expect(await call('store_document', doc)).toEqual({ id: doc.id, embedding: 'local', dimensions: DIMENSIONS });
    const found = await call('search_documents', { query: 'nearest neighbours of embeddings with pgvector', limit: 3 });
    const results = found.results as Array<{ id: string; distance: number }>;
    expect(results.map((r) => r.id)[0]).toBe('vec');
    expect(results).toHaveLength(3);
    expect(results[0]!.distance).toBeLessThan(results[2]!.distance);
    const bread = await call('search_documents', { query: 'sourdough starter and flour', limit: 1 });
    expect((bread.results as Array<{ id: string }>)[0]!.id).toBe('bread');
  });

  it('accepts the caller’s vectors, for storing and for searching, under any distance', async () => {
    const mine = Array.from({ length: DIMENSIONS }, (_, i) => (i === 7 ? 1 : 0));
    expect(await call('store_document', { id: 'own', title: 'Own vector', text: 'embedded elsewhere', embedding: mine })).toMatchObject({ embedding: 'caller' });
    for (const distance of ['cosine', 'l2', 'inner_product', 'l1']) {
      const res = await call('search_documents', { embedding: mine, distance, limit: 1 });
      expect((res.results as Array<{ id: string; distance: number }>)[0]).toMatchObject({ id: 'own' });
    }
  });

  it('replaces a document stored again under the same id', async () => {
    await call('store_document', { id: 'bread', title: 'Rye bread', text: 'Dark rye flour and caraway seeds.' });
    const res = await call('search_documents', { embedding: embed('Rye bread\nDark rye flour and caraway seeds.'), limit: 1 });
    expect((res.results as Array<{ id: string; title: string; distance: number }>)[0]).toMatchObject({ id: 'bread', title: 'Rye bread' });
    expect(await server.db.main.oneRow('SELECT count(*)::int AS c FROM documents')).toEqual({ c: 4 });
  });

  it('answers a vector of the wrong size with an isError result (inputSchema), and a search with nothing to search for with -32602 (the handler)', async () => {
    const wrongSize = await client.callTool({ name: 'search_documents', arguments: { embedding: [1, 2, 3] } });
    expect(wrongSize.isError).toBe(true);
    expect(wrongSize._meta?.['fa-mcp/validation']).toEqual({ field: 'embedding', reason: `must NOT have fewer than ${DIMENSIONS} items` });
    const err = await client.callTool({ name: 'search_documents', arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
  });
});
