/**
 * The webhooks example against a loopback receiver: the signature verifies
 * with `standardwebhooks`; a receiver that is down gets the event, with the
 * same id, once it is up; a kill -9 of the server leaves undelivered events in
 * the PostgreSQL outbox and a restart delivers them; two instances on one
 * outbox deliver each event once; a private target is refused in production;
 * two callers using the same idempotency key both get their event delivered.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { McpServerHandle } from 'fa-mcp-sdk';
import { getFreePort, startWebhookReceiver } from 'fa-mcp-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { emitter, privateSchema, startInProcess, startProcess, waitFor } from './harness.js';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
function later<T extends { close?: () => Promise<unknown>; stop?: () => Promise<unknown> }>(x: T): T {
  cleanups.push(async () => (x.stop ? x.stop() : x.close?.()));
  return x;
}
// Fast retries so the tests take a second, not the production minutes.
const fast = { WEBHOOKS_INITIAL_BACKOFF_MS: '50', WEBHOOKS_MAX_BACKOFF_MS: '200', WEBHOOKS_POLL_INTERVAL_MS: '50' };

describe('examples/webhooks', () => {
  it('emit_event: the receiver verifies the signature with standardwebhooks; body { type, timestamp, data }', async () => {
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret }));
    const server = later(await startInProcess({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret }));
    const client = later(await emitter(server.url!));
    const sent = await client.emit('report.ready', { reportId: 7 });
    expect(sent.endpoints).toEqual(['receiver']);
    const [hook] = await receiver.waitFor((r) => r.length >= 1);
    expect(hook!.id).toBe(sent.id);
    const payload = new Webhook(secret).verify(hook!.body, hook!.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: 'report.ready', data: { reportId: 7 } });
    expect(typeof payload.timestamp).toBe('string');
    // The secret is nowhere in what an operator sees.
    const health = await (await fetch(new URL('/health', server.url))).text();
    expect(health).not.toContain(secret);
  });

  it('receiver down: retried until it is up, then delivered once with the same id', async () => {
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret }));
    await receiver.close(); // down: connections refused
    const server = later(await startInProcess({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret, ...fast }));
    const client = later(await emitter(server.url!));
    const sent = await client.emit('ticket.changed', { ticket: 'T-1' });
    const pending = await waitFor('three failed attempts', async () => {
      const [p] = await server.webhooks!.outbox.list('pending', 1);
      return p && p.attempts >= 3 ? p : undefined;
    });
    expect(pending.lastError).toMatch(/ECONNREFUSED/);
    await receiver.listen();
    const received = await receiver.waitFor((r) => r.length >= 1);
    expect(received.map((h) => h.id)).toEqual([sent.id]);
    expect(received[0]!.verified).toBe(true);
    await waitFor('delivered in the outbox', async () => (await server.webhooks!.outbox.countByStatus()).delivered === 1);
  });

  it('kill -9 of the server with undelivered events in the PostgreSQL outbox: delivered after a restart', async () => {
    const db = await privateSchema();
    cleanups.push(() => db.drop());
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret, port: await getFreePort() }));
    await receiver.close();
    const env = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret, WEBHOOKS_STORE: 'postgres', DB_MAIN_URL: db.url, WEBHOOKS_LEASE_MS: '1000', ...fast };
    const first = later(await startProcess(env));
    const client = await emitter(first.url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await client.emit('job.done', { job: i })).id);
    await client.close().catch(() => undefined);
    const stored = await db.pool.query<{ id: string }>("SELECT id FROM fa_mcp_webhook_outbox WHERE status = 'pending'");
    expect(stored.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    process.kill(first.pid, 'SIGKILL');
    await waitFor('the killed server to be gone', async () => {
      try {
        await fetch(first.baseUrl + '/health');
        return false;
      } catch {
        return true;
      }
    });
    await receiver.listen();
    later(await startProcess(env));
    const received = await receiver.waitFor((r) => new Set(r.map((h) => h.id)).size >= 3, 30_000);
    expect([...new Set(received.map((h) => h.id))].sort()).toEqual([...ids].sort());
    expect(received.every((h) => h.verified)).toBe(true);
  }, 120_000);

  it('two instances on one outbox: each event delivered once in normal running', async () => {
    const db = await privateSchema();
    cleanups.push(() => db.drop());
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret }));
    const env = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret, WEBHOOKS_STORE: 'postgres', DB_MAIN_URL: db.url, ...fast };
    const servers: McpServerHandle[] = [later(await startInProcess(env)), later(await startInProcess(env))];
    const clients = [later(await emitter(servers[0]!.url!)), later(await emitter(servers[1]!.url!))];
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => clients[i % 2]!.emit('order.created', { order: i }).then((r) => r.id)));
    await receiver.waitFor((r) => r.length >= 30);
    await waitFor('all delivered', async () => {
      const counts = await servers[0]!.webhooks!.outbox.countByStatus();
      return counts.delivered === 30 && counts.pending === 0;
    });
    const delivered = await servers[1]!.webhooks!.outbox.list('delivered', 100);
    // One attempt each, and the receiver saw each id exactly once.
    expect(delivered.every((d) => d.attempts === 1)).toBe(true);
    expect(receiver.received.map((h) => h.id).sort()).toEqual([...ids].sort());
  }, 60_000);

  for (const store of ['memory', 'postgres'] as const) {
    it(`two callers, one idempotency key (${store} outbox): each gets its event, only a caller's own repeat is dropped`, async () => {
      const alice = `alice-${randomBytes(16).toString('hex')}`;
      const mallory = `mallory-${randomBytes(16).toString('hex')}`;
      const secret = newSecret();
      const receiver = later(await startWebhookReceiver({ secret }));
      const env: Record<string, string> = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret, AUTH_ENABLED: 'true', AUTH_PERMANENT_SERVER_TOKENS: `${alice},${mallory}` };
      if (store === 'postgres') {
        const db = await privateSchema();
        cleanups.push(() => db.drop());
        Object.assign(env, { WEBHOOKS_STORE: 'postgres', DB_MAIN_URL: db.url });
      }
      const server = later(await startInProcess(env));
      const [a, m] = [later(await emitter(server.url!, alice)), later(await emitter(server.url!, mallory))];
      const first = await m.emit('order.created', { by: 'mallory' }, 'order-42');
      const second = await a.emit('order.created', { by: 'alice' }, 'order-42');
      const repeat = await a.emit('order.created', { by: 'alice' }, 'order-42');
      expect(second.id).not.toBe(first.id);
      expect(repeat.id).toBe(second.id);
      const received = await receiver.waitFor((r) => r.length >= 2);
      await waitFor('both delivered', async () => (await server.webhooks!.outbox.countByStatus()).delivered === 2);
      expect(received.map((h) => [h.id, h.payload.data])).toEqual(
        expect.arrayContaining([
          [first.id, { by: 'mallory' }],
          [second.id, { by: 'alice' }],
        ]),
      );
      expect(await server.webhooks!.outbox.countByStatus()).toEqual({ pending: 0, delivered: 2, dead: 0 });
    });
  }

  it('a private target is refused in production: the event is dead, the receiver gets nothing', async () => {
    const secret = newSecret();
    const receiver = later(await startWebhookReceiver({ secret }));
    const server = later(await startInProcess({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret }, 'production'));
    const client = later(await emitter(server.url!));
    const sent = await client.emit('report.ready', {});
    const [dead] = await waitFor('the event to be dead', async () => {
      const list = await server.webhooks!.listDead();
      return list.length > 0 ? list : undefined;
    });
    expect(dead).toMatchObject({ id: sent.id, attempts: 1 });
    expect(dead!.lastError).toMatch(/refused: 127\.0\.0\.1 is a private, loopback or link-local address/);
    expect(receiver.received).toHaveLength(0);
  });
});
