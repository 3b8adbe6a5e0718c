/**
 * Delivery from the outbox to a real loopback receiver, on a manual clock:
 * Standard Webhooks signatures (verified by the standardwebhooks package,
 * rotation with two secrets), retries with the same webhook-id, backoff with
 * jitter, Retry-After, no retry on other 4xx, dead after maxAttempts, and the
 * operator's re-send.
 */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { closeAfterEach, manualClock, manualRuntime, newSecret, webhooksConfig } from './webhook-harness.js';

const track = closeAfterEach();

async function setup(opts: { secret?: string; maxAttempts?: number; events?: string[] } = {}) {
  const secret = opts.secret ?? newSecret();
  const receiver = track(await startWebhookReceiver({ secret: secret.split(' ')[0] as string }));
  const clock = manualClock();
  const runtime = track(await manualRuntime(
    webhooksConfig([{ name: 'orders', url: receiver.url, secret, ...(opts.events ? { events: opts.events } : {}) }], {
      maxAttempts: opts.maxAttempts ?? 8,
      initialBackoffMs: 1000,
      maxBackoffMs: 60_000,
    }),
    clock,
  ));
  return { secret, clock, receiver, runtime };
}

describe('webhook delivery', () => {
  it('signs in the Standard Webhooks format: the standardwebhooks package verifies it, body { type, timestamp, data }', async () => {
    const { secret, receiver: rx, runtime: rt } = await setup();
    const sent = await rt.sender.send('report.ready', { reportId: 42 });
    expect(sent.endpoints).toEqual(['orders']);
    expect(sent.id).toMatch(/^msg_/);
    expect(await rt.dispatcher.runOnce()).toBe(1);
    const [hook] = rx.received;
    expect(hook?.verified).toBe(true);
    expect(hook?.id).toBe(sent.id);
    expect(hook?.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(secret).verify(hook!.body, hook!.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: 'report.ready', data: { reportId: 42 } });
    expect(Date.parse(payload.timestamp as string)).not.toBeNaN();
    // A wrong secret does not verify.
    expect(() => new Webhook(newSecret()).verify(hook!.body, hook!.headers)).toThrow();
    expect((await rt.outbox.countByStatus()).delivered).toBe(1);
  });

  it('signs with every secret during a rotation (one signature each, space separated)', async () => {
    const [oldS, newS] = [newSecret(), newSecret()];
    const { receiver: rx, runtime: rt } = await setup({ secret: `${oldS} ${newS}` });
    await rt.sender.send('a.b', {});
    await rt.dispatcher.runOnce();
    const hook = rx.received[0]!;
    expect(hook.signature.split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldS).verify(hook.body, hook.headers)).not.toThrow();
    expect(() => new Webhook(newS).verify(hook.body, hook.headers)).not.toThrow();
  });

  it('retries 5xx with backoff and jitter, keeping the webhook-id; the body is the same on every attempt', async () => {
    const { clock, receiver: rx, runtime: rt } = await setup();
    rx.respondWith(() => ({ status: 503 }));
    const { id } = await rt.sender.send('x.y', { n: 1 });
    await rt.dispatcher.runOnce();
    const [first] = await rt.outbox.list('pending', 10);
    // random() = 0.5: half the delay fixed, half jittered -> 750 ms after 1000 ms initial.
    expect(first!.nextAttemptAt - clock.now()).toBe(750);
    expect(first!.lastStatus).toBe(503);
    expect(await rt.dispatcher.runOnce()).toBe(0); // not due yet
    clock.advance(750);
    await rt.dispatcher.runOnce();
    const [second] = await rt.outbox.list('pending', 10);
    expect(second!.nextAttemptAt - clock.now()).toBe(1500); // doubled
    rx.respondWith(() => ({ status: 200 }));
    clock.advance(1500);
    await rt.dispatcher.runOnce();
    expect(rx.received.map((h) => h.id)).toEqual([id, id, id]);
    expect(new Set(rx.received.map((h) => h.body)).size).toBe(1);
    expect((await rt.outbox.list('delivered', 10))[0]?.attempts).toBe(3);
  });

  it('honours Retry-After on 429', async () => {
    const { clock, receiver: rx, runtime: rt } = await setup();
    rx.respondWith(() => ({ status: 429, headers: { 'retry-after': '7' } }));
    await rt.sender.send('x.y', {});
    await rt.dispatcher.runOnce();
    expect((await rt.outbox.list('pending', 1))[0]!.nextAttemptAt - clock.now()).toBe(7000);
  });

  it('does not retry other 4xx: the event is dead after one attempt; a redirect is not followed', async () => {
    const { clock, receiver: rx, runtime: rt } = await setup();
    rx.respondWith(() => ({ status: 400 }));
    await rt.sender.send('x.y', {});
    await rt.dispatcher.runOnce();
    rx.respondWith(() => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    await rt.sender.send('x.z', {});
    await rt.dispatcher.runOnce();
    clock.advance(3_600_000);
    expect(await rt.dispatcher.runOnce()).toBe(0);
    expect(rx.received).toHaveLength(2);
    const dead = await rt.listDead();
    expect(dead.map((d) => [d.type, d.lastStatus]).sort()).toEqual([['x.y', 400], ['x.z', 302]]);
    expect(dead.find((d) => d.type === 'x.z')?.lastError).toContain('redirects are not followed');
  });

  it('is dead after maxAttempts; an operator re-send delivers it with the same id', async () => {
    const { clock, receiver: rx, runtime: rt } = await setup({ maxAttempts: 3 });
    rx.respondWith(() => ({ status: 500 }));
    const { id } = await rt.sender.send('x.y', {});
    for (let i = 0; i < 3; i++) {
      await rt.dispatcher.runOnce();
      clock.advance(60_000);
    }
    expect(rx.received).toHaveLength(3);
    const [dead] = await rt.listDead();
    expect(dead).toMatchObject({ id, attempts: 3, status: 'dead' });
    expect(dead!.lastError).toContain('gave up after 3 attempts');
    rx.respondWith(() => ({ status: 204 }));
    expect(await rt.resend([id])).toBe(1);
    await rt.dispatcher.runOnce();
    expect(rx.received.at(-1)?.id).toBe(id);
    expect(await rt.listDead()).toEqual([]);
  });

  it('retries when the receiver is down (connection refused), then delivers', async () => {
    const { clock, receiver: rx, runtime: rt } = await setup();
    await rx.close();
    const { id } = await rt.sender.send('x.y', {});
    await rt.dispatcher.runOnce();
    const [p] = await rt.outbox.list('pending', 1);
    expect(p!.lastError).toMatch(/ECONNREFUSED/);
    await rx.listen();
    clock.advance(60_000);
    await rt.dispatcher.runOnce();
    expect(rx.received.map((h) => h.id)).toEqual([id]);
  });

  it("the server's idempotency key queues one event and becomes the webhook-id; endpoints take only their event types", async () => {
    const { receiver: rx, runtime: rt } = await setup({ events: ['order.*'] });
    const a = await rt.sender.send('order.created', { n: 1 }, { idempotencyKey: 'order-1-created' });
    const b = await rt.sender.send('order.created', { n: 1 }, { idempotencyKey: 'order-1-created' });
    const other = await rt.sender.send('invoice.paid', {});
    expect(a).toEqual({ id: 'order-1-created', endpoints: ['orders'] });
    expect(b.id).toBe('order-1-created');
    expect(other.endpoints).toEqual([]);
    await rt.dispatcher.runOnce();
    expect(rx.received.map((h) => h.id)).toEqual(['order-1-created']);
    await expect(rt.sender.send('bad type', {})).rejects.toThrow(/type/);
    await expect(rt.sender.send('a', {}, { idempotencyKey: 'has space' })).rejects.toThrow(/idempotencyKey/);
    await expect(rt.sender.send('a', {}, { idempotencyKey: `msg_${'A'.repeat(43)}` })).rejects.toThrow(/reserved for the events of callers/);
  });
});
