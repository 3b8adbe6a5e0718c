/**
 * The audit trail's promise in `sync` mode (page 13), on examples/demo with the settings outside
 * checks use (MCP_AUDIT_SINK=postgres, MCP_AUDIT_MODE=sync, DB_MAIN_URL):
 * (a) kill -9 under load loses no record of an answered call: every X-Request-Id a client got an
 *     answer for is a row of fa_mcp_audit, and `fa-mcp audit verify --db` finds the chain intact;
 * (b) PostgreSQL out of reach (a loopback TCP relay in front of the real server, cut): /ready says
 *     the audit check fails, calls are refused with -32006 rather than served unrecorded, and once
 *     the database is back calls are served and recorded again, and so is the refused call (as an
 *     error -32006).
 * Needs PostgreSQL: in CI its absence fails; elsewhere the file skips with a reason.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../scripts/test-kit/ci-checks.mjs';
import { assertSdkBuildIsCurrent } from '../../scripts/test-kit/sdk-build.mjs';
import { createDatabase, createInstance, freePort, LOCAL_PG_URL, pgAnswers, pgRows, statusOf, waitUntil } from '../../scripts/cluster/cluster.mjs';
import { buildDemoDist } from '../../examples/demo/test/demo-dist.js';
import { runProcess } from './src/cli-process.js';

const PG_URL = process.env.FA_MCP_TEST_PG_URL ?? LOCAL_PG_URL;
const FA_MCP_BIN = fileURLToPath(new URL('../../packages/fa-mcp-sdk/bin/fa-mcp.js', import.meta.url));
const WORKERS = 8;
const ANSWERED_BEFORE_KILL = 400;

const ready = serviceAvailable(await pgAnswers(PG_URL), `PostgreSQL at ${new URL(PG_URL).host}`, 'run scripts/ci/start-postgres.sh, or set FA_MCP_TEST_PG_URL');

/** One 2026-07-28 tools/call of get_time, with its own X-Request-Id; the parsed JSON-RPC answer, or the error that ended the exchange. */
async function callGetTime(base: string, requestId: string): Promise<{ status: number; body?: { result?: unknown; error?: { code: number } } } | { failed: string }> {
  try {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_time', 'x-request-id': requestId },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_time',
          arguments: { timezone: 'UTC' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'audit-durability', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as { result?: unknown; error?: { code: number } } };
  } catch (e) {
    return { failed: (e as Error).message };
  }
}

async function auditedRequestIds(url: string): Promise<Set<string>> {
  const rows = (await pgRows(url, "SELECT request_id FROM fa_mcp_audit WHERE kind = 'request' AND request_id IS NOT NULL")) as Array<{ request_id: string }>;
  return new Set(rows.map((r) => r.request_id));
}

/** A TCP relay on loopback in front of PostgreSQL that can be cut (every connection closed, new ones refused) and restored. */
async function pgRelay(target: URL): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  let open = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.runIf(ready)('the audit trail of examples/demo in sync mode on PostgreSQL', () => {
  let db: { url: string; drop(): Promise<void> };
  const instances: Array<{ kill(): Promise<unknown> }> = [];

  beforeAll(async () => {
    assertSdkBuildIsCurrent();
    buildDemoDist();
    db = await createDatabase(PG_URL, `fa_mcp_audit_${randomBytes(4).toString('hex')}`);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill().catch(() => undefined)));
    await db?.drop();
  });

  const auditEnv = (dbUrl: string) => ({ MCP_AUDIT_SINK: 'postgres', MCP_AUDIT_MODE: 'sync', DB_MAIN_URL: dbUrl, MCP_AUDIT_INSTANCE: 'demo-audit', LOG_LEVEL: 'warn' });

  it('kill -9 under load loses no record of an answered call', async () => {
    const inst = createInstance({ name: 'audit-kill', port: await freePort(), env: auditEnv(db.url) }).start();
    instances.push(inst);
    await inst.waitReady();

    const answered: string[] = [];
    const failed: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const id = `kill-${w}-${n}`;
        const out = await callGetTime(inst.url, id);
        if ('failed' in out) {
          failed.push(id);
          if (!inst.running) return;
        } else if (out.status === 200 && out.body?.result !== undefined) answered.push(id);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    await waitUntil(() => answered.length >= ANSWERED_BEFORE_KILL, 60_000, `${ANSWERED_BEFORE_KILL} answered calls`);
    await inst.kill();
    stop = true;
    await load;

    const recorded = await auditedRequestIds(db.url);
    const missing = answered.filter((id) => !recorded.has(id));
    expect(answered.length).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);
    expect(missing, `answered calls without an audit record (of ${answered.length} answered, ${failed.length} cut by the kill)`).toEqual([]);

    const verify = await runProcess(process.execPath, [FA_MCP_BIN, 'audit', 'verify', '--db', db.url], { cwd: mkdtempSync(join(tmpdir(), 'fa-mcp-verify-')), timeoutMs: 60_000 });
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/audit trail intact: \d+ records in 1 chain/);
  }, 180_000);

  it('PostgreSQL out of reach: /ready fails and calls are refused with -32006, then served and recorded once it is back', async () => {
    const relay = await pgRelay(new URL(db.url));
    const viaRelay = new URL(db.url);
    viaRelay.host = `127.0.0.1:${relay.port}`;
    const inst = createInstance({ name: 'audit-pg-down', port: await freePort(), env: auditEnv(viaRelay.toString()) }).start();
    instances.push(inst);
    try {
      await inst.waitReady();
      const before = await callGetTime(inst.url, 'down-before');
      expect('body' in before && before.body?.result).toBeTruthy();

      relay.cut();
      await waitUntil(async () => (await statusOf(`${inst.url}/ready`)) === 503, 30_000, '/ready to fail while PostgreSQL is out of reach');
      const readiness = (await (await fetch(`${inst.url}/ready`)).json()) as { checks: Record<string, { status: string }> };
      expect(readiness.checks.audit?.status).not.toBe('ok');
      const refused = await callGetTime(inst.url, 'down-during');
      expect('body' in refused && refused.body?.error?.code).toBe(-32006);

      relay.restore();
      await waitUntil(async () => (await statusOf(`${inst.url}/ready`)) === 200, 60_000, '/ready once PostgreSQL is back');
      const after = await callGetTime(inst.url, 'down-after');
      expect('body' in after && after.body?.result).toBeTruthy();
      const recorded = await auditedRequestIds(db.url);
      expect(recorded.has('down-before')).toBe(true);
      expect(recorded.has('down-after')).toBe(true);
      // the refused call is itself recorded as failed once the database takes records again
      const during = await pgRows(db.url, 'SELECT outcome, code FROM fa_mcp_audit WHERE request_id = $1', ['down-during']);
      expect(during).toEqual([{ outcome: 'error', code: -32006 }]);
    } finally {
      await inst.stop();
      await relay.close();
    }
  }, 180_000);
});
