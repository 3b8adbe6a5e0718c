/**
 * The IResourceStore contract (minted resources): the in-memory and the
 * PostgreSQL store pass the same suite, and MintedResources behaves the same
 * over either. The PostgreSQL store is also read by a second instance.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_ERROR_CODES } from '../../src/core/errors.js';
import { MintedResources } from '../../src/state/minted-resources.js';
import type { IResourceStore, IStoredResource } from '../../src/state/resource-store.js';
import { InMemoryResourceStore } from '../../src/state/resource-store-memory.js';
import { PostgresResourceStore } from '../../src/state/resource-store-postgres.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('resources_contract');
});
afterAll(async () => {
  await db?.drop();
});

const stores: Array<{ name: string; make: (maxResources?: number, maxBytes?: number) => Promise<IResourceStore> }> = [
  { name: 'memory', make: async (maxResources = 100, maxBytes = 1_000_000) => new InMemoryResourceStore({ maxResources, maxBytes }) },
  {
    name: 'postgres',
    make: async (maxResources = 100, maxBytes = 1_000_000) => {
      const store = new PostgresResourceStore(db.pool, { maxResources, maxBytes });
      await store.migrate();
      await db.pool.query('DELETE FROM fa_mcp_resources');
      return store;
    },
  },
];

const HOUR = 3_600_000;
function resource(over: Partial<IStoredResource> = {}): IStoredResource {
  const id = over.id ?? randomUUID();
  const text = over.blob === undefined ? (over.text ?? 'hello') : undefined;
  const now = Date.now();
  return {
    id,
    uri: `test://minted/${id}/r.txt`,
    name: 'r.txt',
    mimeType: 'text/plain',
    ...(text !== undefined ? { text } : {}),
    size: text !== undefined ? Buffer.byteLength(text) : 0,
    createdAt: now,
    expiresAt: now + HOUR,
    ...over,
  };
}

const errorCode = (p: Promise<unknown>) => p.then(() => undefined, (e: { code?: number }) => e.code);

describe.each(stores)('IResourceStore contract: $name', ({ make }) => {
  it('stores and reads back text and blob resources exactly', async () => {
    const store = await make();
    const text = resource({ text: 'ünïcødé', size: Buffer.byteLength('ünïcødé'), title: 'T', description: 'D' });
    const blob = resource({ blob: Buffer.from([0, 1, 2, 255]).toString('base64'), size: 4, mimeType: 'application/octet-stream' });
    await store.put(text);
    await store.put(blob);
    expect(await store.get(text.id)).toEqual(text);
    expect(await store.get(blob.id)).toEqual(blob);
    expect(await store.get(randomUUID())).toBeUndefined();
  });

  it('does not return an expired resource, and the sweep deletes it', async () => {
    const store = await make();
    const now = Date.now();
    const r = resource({ createdAt: now, expiresAt: now + 1000 });
    const keeps = resource();
    await store.put(r);
    await store.put(keeps);
    expect(await store.get(r.id, now + 999)).toBeDefined();
    expect(await store.get(r.id, now + 1000)).toBeUndefined();
    expect(await store.sweep(now + 1000)).toBe(1);
    expect(await store.get(keeps.id)).toBeDefined();
  });

  it('keeps at most maxResources, dropping the oldest first', async () => {
    const store = await make(3);
    const list = [resource(), resource(), resource(), resource(), resource()];
    for (const r of list) await store.put(r);
    const present = await Promise.all(list.map(async (r) => (await store.get(r.id)) !== undefined));
    expect(present).toEqual([false, false, true, true, true]);
  });

  it('keeps at most maxBytes of content, dropping the oldest first and never the newest', async () => {
    const store = await make(100, 100);
    const forty = () => resource({ text: 'x'.repeat(40), size: 40 });
    const list = [forty(), forty(), forty()];
    for (const r of list) await store.put(r);
    expect(await Promise.all(list.map(async (r) => (await store.get(r.id)) !== undefined))).toEqual([false, true, true]);
    const big = resource({ text: 'y'.repeat(100), size: 100 });
    await store.put(big);
    expect(await Promise.all([...list, big].map(async (r) => (await store.get(r.id)) !== undefined))).toEqual([false, false, false, true]);
  });

  it('deletes one resource', async () => {
    const store = await make();
    const r = resource();
    await store.put(r);
    expect(await store.delete(r.id)).toBe(true);
    expect(await store.delete(r.id)).toBe(false);
    expect(await store.get(r.id)).toBeUndefined();
  });

  describe('MintedResources over it', () => {
    const minted = (store: IResourceStore, maxBytes = 1000) => new MintedResources({ store, uriPrefix: 'demo://resource/minted/', ttlMs: 60_000, maxBytes });

    it('mints a resource link whose URI reads back the content, under an unguessable id', async () => {
      const m = minted(await make());
      const link = await m.mint({ name: 'report 1.csv', mimeType: 'text/csv', text: 'a,b\n1,2\n', title: 'Report' });
      expect(link).toMatchObject({ type: 'resource_link', name: 'report 1.csv', mimeType: 'text/csv', title: 'Report' });
      expect(link.uri).toMatch(/^demo:\/\/resource\/minted\/[0-9a-f-]{36}\/report%201\.csv$/);
      expect(await m.read(link.uri)).toEqual([{ uri: link.uri, mimeType: 'text/csv', text: 'a,b\n1,2\n' }]);
      const other = await m.mint({ name: 'report 1.csv', text: 'x' });
      expect(other.uri).not.toBe(link.uri);
      const bin = await m.mint({ name: 'b.bin', blob: Buffer.from('binary').toString('base64') });
      expect(await m.read(bin.uri)).toEqual([{ uri: bin.uri, blob: Buffer.from('binary').toString('base64') }]);
    });

    it('answers an unknown, altered or expired URI with RESOURCE_NOT_FOUND', async () => {
      const m = minted(await make());
      const link = await m.mint({ name: 'a.txt', text: 'x', ttlMs: 5_000 });
      expect(await errorCode(m.read(link.uri.replace('a.txt', 'b.txt')))).toBe(MCP_ERROR_CODES.RESOURCE_NOT_FOUND);
      expect(await errorCode(m.read(`demo://resource/minted/${randomUUID()}/a.txt`))).toBe(MCP_ERROR_CODES.RESOURCE_NOT_FOUND);
      expect(await errorCode(m.read(link.uri, Date.now() + 5_001))).toBe(MCP_ERROR_CODES.RESOURCE_NOT_FOUND);
      // a tool may ask for a shorter life, never a longer one than configured
      const long = await m.mint({ name: 'l.txt', text: 'x', ttlMs: 10 * 60_000 });
      expect(await errorCode(m.read(long.uri, Date.now() + 61_000))).toBe(MCP_ERROR_CODES.RESOURCE_NOT_FOUND);
    });

    it('refuses bad input and content larger than maxBytes', async () => {
      const m = minted(await make(), 10);
      expect(await errorCode(m.mint({ name: '', text: 'x' }))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
      expect(await errorCode(m.mint({ name: 'a', text: 'x', blob: 'eA==' }))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
      expect(await errorCode(m.mint({ name: 'a' }))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
      expect(await errorCode(m.mint({ name: 'a', blob: 'not base64!' }))).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
      expect(await errorCode(m.mint({ name: 'a', text: 'x'.repeat(11) }))).toBe(MCP_ERROR_CODES.PAYLOAD_TOO_LARGE);
      expect(await errorCode(m.mint({ name: 'a', text: 'x'.repeat(10) }))).toBeUndefined();
    });
  });
});

describe('PostgresResourceStore across instances', () => {
  it('serves, from another instance with its own pool, what one instance minted', async () => {
    const a = new PostgresResourceStore(db.pool, { maxResources: 10, maxBytes: 1000 });
    await a.migrate();
    const link = await new MintedResources({ store: a, uriPrefix: 'x://m/', ttlMs: 60_000, maxBytes: 1000 }).mint({ name: 'n', text: 'shared' });
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    try {
      const b = new MintedResources({ store: new PostgresResourceStore(pool, { maxResources: 10, maxBytes: 1000 }), uriPrefix: 'x://m/', ttlMs: 60_000, maxBytes: 1000 });
      expect(await b.read(link.uri)).toEqual([{ uri: link.uri, text: 'shared' }]);
    } finally {
      await pool.end();
    }
  });
});
