/**
 * A private schema on the test PostgreSQL for one test file: created on demand,
 * dropped afterwards. FA_MCP_TEST_PG_URL overrides the local default that
 * scripts/ci/start-postgres.sh sets up.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

export const TEST_PG_URL = process.env.FA_MCP_TEST_PG_URL ?? 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';

export interface TestSchema {
  schema: string;
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

export async function createTestSchema(prefix: string): Promise<TestSchema> {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: TEST_PG_URL, max: 1 });
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = `${TEST_PG_URL}${TEST_PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    schema,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      const cleanup = new pg.Pool({ connectionString: TEST_PG_URL, max: 1 });
      await cleanup.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * A schema for the calling test file, created before its tests and dropped after them (call at the
 * file's top level); the returned function gives it inside the tests.
 */
export function useTestSchema(prefix: string): () => TestSchema {
  let db: TestSchema | undefined;
  beforeAll(async () => {
    db = await createTestSchema(prefix);
  });
  afterAll(async () => {
    await db?.drop();
  });
  return () => {
    if (!db) throw new Error(`the ${prefix} test schema is not created yet: call useTestSchema at the top level of the file`);
    return db;
  };
}
