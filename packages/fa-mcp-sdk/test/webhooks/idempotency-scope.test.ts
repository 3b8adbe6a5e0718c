/**
 * Idempotency keys belong to the caller: a caller who sends a key first cannot make another
 * caller's event with the same key vanish, on the memory and the PostgreSQL outbox and on both
 * protocol eras. Each caller's `webhook-id` is derived from its subject and the key (stable:
 * the same caller repeating the key queues nothing more), so the receiver, which drops
 * duplicates by `webhook-id`, keeps both events too. Unauthenticated callers share one
 * namespace; the server's own events keep their key as the id; rows written before the change
 * are still delivered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, initMcpServer, type McpServerData, type McpServerHandle } from '../../src/index.js';
import { PostgresWebhookOutbox } from '../../src/stores/index.js';
import { connectHttp, startWebhookReceiver, type WebhookReceiver } from '../../src/testing/index.js';
import { createTestSchema, type TestSchema } from '../tasks/pg-test-db.js';
import { closeAfterEach, manualClock, manualRuntime, newSecret, until, webhooksConfig } from './webhook-harness.js';

const ALICE = 'alice-token-0123456789abcdefghijklmnopqrstuv';
const MALLORY = 'mallory-token-0123456789abcdefghijklmnopqrs';
const DERIVED = /^msg_[A-Za-z0-9_-]{43}$/;

const data: McpServerData = {
  tools: [
    {
      name: 'emit_event',
      description: 'Sends an event with an idempotency key.',
      inputSchema: { type: 'object', properties: { key: { type: 'string' }, from: { type: 'string' } }, required: ['key', 'from'] },
      handler: async ({ arguments: a, webhooks }) => formatToolResult(await webhooks.send('order.created', { from: a.from }, { idempotencyKey: String(a.key) })),
    },
  ],
};

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('webhook_scope');
});
afterAll(async () => {
  await db.drop();
});

const handles: McpServerHandle[] = [];
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop('test finished')));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function start(store: 'memory' | 'postgres', secret: string, receiver: WebhookReceiver): Promise<McpServerHandle> {
  const handle = await initMcpServer(data, {
    handleSignals: false,
    config: {
      webServer: { port: 0, auth: { enabled: true, permanentServerTokens: [ALICE, MALLORY] } },
      logger: { level: 'silent' },
      ...(store === 'postgres' ? { db: { postgres: { dbs: { main: { url: db.url } } } } } : {}),
      webhooks: { endpoints: [{ name: 'main', url: receiver.url, secret }], store, pollIntervalMs: 20 },
    },
  });
  handles.push(handle);
  return handle;
}

async function emit(url: string, token: string, era: '2025' | '2026', key: string, from: string): Promise<{ id: string; endpoints: string[] }> {
  const client = await connectHttp(url, { era, headers: { authorization: `Bearer ${token}` } });
  try {
    const result = await client.callTool({ name: 'emit_event', arguments: { key, from } });
    expect(result.isError).toBeFalsy();
    return result.structuredContent as { id: string; endpoints: string[] };
  } finally {
    await client.close();
  }
}

for (const [store, era] of [
  ['memory', '2025'],
  ['memory', '2026'],
  ['postgres', '2025'],
] as const) {
  describe(`two callers, one key (${store} outbox, ${era})`, () => {
    it("the first caller's key does not swallow the second caller's event; each caller's repeat still does", async () => {
      const secret = newSecret();
      const receiver = await startWebhookReceiver({ secret });
      receivers.push(receiver);
      if (store === 'postgres') {
        // An event queued before keys were scoped: its id is the bare key. It must still go out, and not block anyone's new key.
        await new PostgresWebhookOutbox(db.pool).migrate();
        await db.pool.query('TRUNCATE fa_mcp_webhook_outbox');
        const now = Date.now();
        await db.pool.query(
          `INSERT INTO fa_mcp_webhook_outbox (id, endpoint, type, body, status, attempts, next_attempt_at, created_at, updated_at)
           VALUES ('order-1', 'main', 'order.created', $1, 'pending', 0, $2, $2, $2)`,
          [JSON.stringify({ type: 'order.created', timestamp: new Date(now).toISOString(), data: { from: 'before the upgrade' } }), now],
        );
      }
      const handle = await start(store, secret, receiver);
      const url = handle.url!;

      const attacker = await emit(url, MALLORY, era, 'order-1', 'mallory');
      const victim = await emit(url, ALICE, era, 'order-1', 'alice');
      const victimAgain = await emit(url, ALICE, era, 'order-1', 'alice, retried');
      expect(attacker).toEqual({ id: expect.stringMatching(DERIVED), endpoints: ['main'] });
      expect(victim).toEqual({ id: expect.stringMatching(DERIVED), endpoints: ['main'] });
      expect(victim.id).not.toBe(attacker.id);
      expect(victimAgain.id).toBe(victim.id);

      const expected = store === 'postgres' ? 3 : 2;
      const got = await receiver.waitFor((r) => r.length >= expected);
      await until('every delivery recorded', async () => (await handle.webhooks!.outbox.countByStatus()).delivered === expected);
      const byId = new Map(got.map((h) => [h.id, h]));
      expect(byId.size).toBe(expected);
      expect(byId.get(attacker.id)?.payload.data).toEqual({ from: 'mallory' });
      expect(byId.get(victim.id)?.payload.data).toEqual({ from: 'alice' });
      expect(got.every((h) => h.verified)).toBe(true);
      if (store === 'postgres') {
        expect(byId.get('order-1')?.payload.data).toEqual({ from: 'before the upgrade' });
        const rows = await db.pool.query<{ id: string }>('SELECT id FROM fa_mcp_webhook_outbox ORDER BY id');
        expect(rows.rows.map((r) => r.id).sort()).toEqual([attacker.id, victim.id, 'order-1'].sort());
      }
      const counts = await handle.webhooks!.outbox.countByStatus();
      expect(counts).toEqual({ pending: 0, delivered: expected, dead: 0 });
    });
  });
}

describe('namespaces of the sender', () => {
  const later = closeAfterEach();

  it('anonymous callers share one, each subject has its own, the server keeps its keys', async () => {
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret }));
    const rt = later(await manualRuntime(webhooksConfig([{ name: 'main', url: receiver.url, secret }]), manualClock()));
    const ctx = (subject?: string) => ({ requestId: 'r', era: '2025' as const, transport: 'http' as const, clientCapabilities: {}, ...(subject ? { auth: { subject, scopes: [], groups: [], claims: {} } } : {}) });
    const anon1 = await rt.sender.forRequest({ ...ctx(), remoteAddress: '10.0.0.1' }).send('a.b', {}, { idempotencyKey: 'k' });
    const anon2 = await rt.sender.forRequest({ ...ctx(), remoteAddress: '10.0.0.2' }).send('a.b', {}, { idempotencyKey: 'k' });
    const bob = await rt.sender.forRequest(ctx('bob')).send('a.b', {}, { idempotencyKey: 'k' });
    const server = await rt.sender.send('a.b', {}, { idempotencyKey: 'k' });
    expect(anon2.id).toBe(anon1.id);
    expect(new Set([anon1.id, bob.id, server.id]).size).toBe(3);
    expect(server.id).toBe('k');
    // A subject that looks like a namespace and a key cannot reach another pair.
    const tricky = await rt.sender.forRequest(ctx('bob","k')).send('a.b', {}, { idempotencyKey: 'x' });
    expect(tricky.id).not.toBe(bob.id);
    // The shape of a caller's id is not the server's to take.
    await expect(rt.sender.send('a.b', {}, { idempotencyKey: bob.id })).rejects.toThrow(/reserved for the events of callers/);
    await rt.dispatcher.runOnce();
    expect(new Set(receiver.received.map((h) => h.id))).toEqual(new Set([anon1.id, bob.id, 'k', tricky.id]));
  });
});
