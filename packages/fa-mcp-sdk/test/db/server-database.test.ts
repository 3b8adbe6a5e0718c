/**
 * The databases inside a running server: the *MAIN helpers work in tool handlers
 * on every transport and era, an unreachable database is -32006 for the client
 * and 503 on /ready (200 again when it is back, the process never exits), and
 * stop() closes the pools.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { oneRowMAIN, queryDB, queryRsMAIN } from '../../src/db/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';
import { createTestSchema, PG_URL, TcpProxy, urlVia } from './pg-env.js';

let schema: Awaited<ReturnType<typeof createTestSchema>>;
beforeAll(async () => {
  schema = await createTestSchema();
});
afterAll(async () => {
  await schema?.drop();
});

const withSearchPath = (url: string, path: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${path}`)}`;

const dbTools: McpServerData = {
  tools: [
    {
      name: 'db_probe',
      description: 'Reads the main and the secondary database.',
      inputSchema: { type: 'object' },
      handler: async () => {
        const main = await oneRowMAIN<{ path: string }>("SELECT current_setting('search_path') AS path");
        const second = await queryDB<{ two: number }>('second', 'SELECT 2 AS two');
        const rows = await queryRsMAIN<{ n: number }>('SELECT generate_series(1, 3) AS n');
        return formatToolResult({ path: main?.path, two: second.rows[0]?.two, n: rows.map((r) => r.n) });
      },
    },
    {
      name: 'db_down',
      description: 'Uses a database nobody listens for.',
      inputSchema: { type: 'object' },
      handler: async () => formatToolResult(await queryDB('down', 'SELECT 1')),
    },
  ],
};

function dbsConfig(mainUrl: string) {
  return {
    db: {
      postgres: {
        dbs: {
          main: { url: mainUrl, connectionTimeoutMs: 5000, poolSize: 3 },
          second: { url: PG_URL, poolSize: 1 },
          down: { host: '127.0.0.1', port: 1, user: 'nobody', connectionTimeoutMs: 500 },
        },
      },
    },
  };
}

const text = (r: unknown) => JSON.parse((r as { content: Array<{ text: string }> }).content[0]!.text) as Record<string, unknown>;

describe.each(ALL_TARGETS)('database helpers in tool handlers on $label', (target) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('the *MAIN and *DB helpers reach the server databases; an unreachable one is -32006', async () => {
    server = await startTestServer(dbTools, { target, config: dbsConfig(withSearchPath(PG_URL, schema.name)) });
    const client = await server.connect();
    expect(text(await client.callTool({ name: 'db_probe', arguments: {} }))).toEqual({ path: schema.name, two: 2, n: [1, 2, 3] });
    const err = await expectToolError(client.callTool({ name: 'db_down', arguments: {} }), MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE);
    expect(err.message).toContain('Database "down" is unavailable');
    expect(JSON.stringify(err)).not.toContain('nobody');
  });
});

describe('consumer pipeline steps', () => {
  it('run inside the database scope too', async () => {
    const seen: unknown[] = [];
    const server = await startTestServer(
      {
        ...dbTools,
        steps: [
          {
            name: 'audit',
            methods: ['tools/call'],
            run: async (op, next) => {
              seen.push((await oneRowMAIN<{ n: string }>('SELECT $1::text AS n', [op.params.name]))?.n);
              return next();
            },
          },
        ],
      },
      { config: dbsConfig(PG_URL) },
    );
    try {
      const client = await server.connect();
      await client.callTool({ name: 'db_probe', arguments: {} });
      expect(seen).toEqual(['db_probe']);
    } finally {
      await server.stop();
    }
  });
});

describe('two servers in one process', () => {
  it('each tool handler sees the databases of its own server', async () => {
    const a = await startTestServer(dbTools, { config: dbsConfig(withSearchPath(PG_URL, 'srv_a')) });
    const b = await startTestServer(dbTools, { config: dbsConfig(withSearchPath(PG_URL, 'srv_b')) });
    try {
      const [ca, cb] = await Promise.all([a.connect(), b.connect()]);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ((i % 2 ? cb : ca).callTool({ name: 'db_probe', arguments: {} }) as Promise<unknown>).then(text)),
      );
      results.forEach((r, i) => expect(r.path).toBe(i % 2 ? 'srv_b' : 'srv_a'));
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('readiness and outages', () => {
  const proxy = new TcpProxy();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await proxy.close();
  });

  async function ready(): Promise<{ status: number; body: { status: string; checks: Record<string, { status: string; error?: string }> } }> {
    const res = await fetch(new URL('/ready', server!.handle.url));
    return { status: res.status, body: (await res.json()) as never };
  }

  it('/ready is 503 while the database is unreachable and 200 again when it returns; tools get -32006 meanwhile', async () => {
    await proxy.open();
    server = await startTestServer(dbTools, { config: dbsConfig(urlVia(proxy.port)) });
    const client = await server.connect();
    let r = await ready();
    expect(r.status).toBe(503); // the `down` database is configured too
    expect(r.body.checks.database?.status).toBe('ok');
    expect(r.body.checks['database:second']?.status).toBe('ok');
    expect(r.body.checks['database:down']?.status).toBe('fail');
    expect(text(await client.callTool({ name: 'db_probe', arguments: {} })).two).toBe(2);

    await proxy.close();
    r = await ready();
    expect(r.status).toBe(503);
    expect(r.body.checks.database?.status).toBe('fail');
    expect(r.body.checks.database?.error).toContain('unavailable');
    await expectToolError(client.callTool({ name: 'db_probe', arguments: {} }), MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE);
    expect(server.handle.stopped).toBe(false);

    await proxy.open();
    const deadline = Date.now() + 10_000;
    do r = await ready();
    while (r.body.checks.database?.status !== 'ok' && Date.now() < deadline);
    expect(r.body.checks.database?.status).toBe('ok');
    expect(text(await client.callTool({ name: 'db_probe', arguments: {} })).two).toBe(2);
  });

  it('with only reachable databases /ready is 200, and stop() closes the pools', async () => {
    await proxy.open();
    const config = dbsConfig(urlVia(proxy.port));
    delete (config.db.postgres.dbs as Record<string, unknown>).down;
    server = await startTestServer(dbTools, { config });
    const client = await server.connect();
    expect((await ready()).status).toBe(200);
    await client.callTool({ name: 'db_probe', arguments: {} });
    const db = server.handle.db;
    expect(db.main.poolStats().total).toBeGreaterThan(0);
    await server.stop();
    server = undefined;
    expect(db.main.poolStats().total).toBe(0);
    await expect(db.main.query('SELECT 1')).rejects.toMatchObject({ code: MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, message: 'Database "main" is closed' });
  });
});
