/**
 * The test PostgreSQL (scripts/ci/start-postgres.sh), a config builder, a unique
 * schema per test file, and a loopback TCP proxy that a test can close and
 * reopen to take "the database" away without touching the shared server.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { DbConnectionConfig } from '../../src/config/sections/db.js';

export const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';

export function dbConfig(overrides: Partial<DbConnectionConfig> = {}): DbConnectionConfig {
  return {
    url: '',
    host: '',
    port: 5432,
    user: '',
    password: '',
    database: '',
    poolSize: 5,
    connectionTimeoutMs: 2000,
    idleTimeoutMs: 10_000,
    statementTimeoutMs: 10_000,
    ssl: false,
    sslRejectUnauthorized: true,
    usedExtensions: [],
    embedded: false,
    embeddedDataDir: '',
    ...overrides,
  };
}

/** The test URL with another host and port (for the proxy). */
export function urlVia(port: number): string {
  const u = new URL(PG_URL);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

/** A fresh schema `fa_mcp_t_<random>`; drop() removes it with everything in it. */
export async function createTestSchema(): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `fa_mcp_t_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${name}"`);
  } finally {
    await client.end();
  }
  return {
    name,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A loopback proxy to the test server whose listening socket can be closed and reopened on the same port. */
export class TcpProxy {
  port = 0;
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly target = new URL(PG_URL);

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and cuts every open connection: the database is "down". */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
