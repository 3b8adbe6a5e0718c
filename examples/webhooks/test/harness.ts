/**
 * What the example's tests share: a private schema on the test PostgreSQL, the
 * example server in this process or as a child process (built once with tsc),
 * an MCP client that calls emit_event, and waiting for a condition with a deadline.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { startServerProcess, type RunningServerProcess } from 'fa-mcp-sdk/testing';
import { createWebhooksServer, WEBHOOKS_ROOT } from '../src/server.js';

export const TEST_PG_URL = process.env.FA_MCP_TEST_PG_URL ?? 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';

/** A schema of its own for one test: DB_MAIN_URL points at it (search_path). */
export async function privateSchema(): Promise<{ url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const schema = `webhooks_example_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: TEST_PG_URL, max: 1 });
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/** Polls `check` until it returns a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The example in this process, on a free port, quiet. */
export function startInProcess(env: Record<string, string>, nodeEnv = 'test') {
  return createWebhooksServer({
    env: { ...process.env, ...env },
    nodeEnv,
    handleSignals: false,
    config: { webServer: { port: 0 }, logger: { level: process.env.TEST_LOG_LEVEL ?? 'silent' } },
  });
}

const run = promisify(execFile);
let built: Promise<unknown> | undefined;

/** The example as a child process (`node dist/start.js`), compiled once per test run. */
export async function startProcess(env: Record<string, string>): Promise<RunningServerProcess> {
  const tsc = createRequire(resolve(WEBHOOKS_ROOT, 'package.json')).resolve('typescript/bin/tsc');
  built ??= run(process.execPath, [tsc, '-p', WEBHOOKS_ROOT]);
  await built;
  return startServerProcess({ command: process.execPath, args: [resolve(WEBHOOKS_ROOT, 'dist/start.js')], cwd: WEBHOOKS_ROOT, env: { LOG_LEVEL: 'warn', ...env } });
}

export interface EmitResult {
  id: string;
  endpoints: string[];
}

/** Connects the official client (with `token` as its bearer, if given) and returns a function that calls emit_event. */
export async function emitter(
  url: string,
  token?: string,
): Promise<{ emit(type: string, data: Record<string, unknown>, idempotencyKey?: string): Promise<EmitResult>; close(): Promise<void> }> {
  const client = new Client({ name: 'webhooks-example-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined));
  return {
    async emit(type, data, idempotencyKey) {
      const result = await client.callTool({ name: 'emit_event', arguments: { type, data, ...(idempotencyKey ? { idempotencyKey } : {}) } });
      if (result.isError) throw new Error(`emit_event failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as unknown as EmitResult;
    },
    close: () => client.close(),
  };
}
