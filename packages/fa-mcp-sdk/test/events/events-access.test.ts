/**
 * Who may do what with events, over HTTP with authentication (the same principal as tools):
 * a type behind a scope is left out of events/list and refused to a caller without it
 * (-32012), a cursor issued to one principal is refused to another, push streams and webhook
 * subscriptions are capped per principal (-32013), webhook subscriptions need a principal and
 * a callback that consents (a signed verification it answers), deliveries are signed with the
 * client's secret and carry `X-MCP-Subscription-Id`, one principal cannot cancel another's
 * subscription, and a lapsed subscription gets nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, startWebhookReceiver, type TestServer, type WebhookReceiver, type WireClient2026 } from '../../src/testing/index.js';
import { bearerValidator, incidentServer } from './fixtures/incident-server.js';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;
const TARGET = { transport: 'http', era: '2026', label: 'http/2026' } as const;

/** Opens an events/stream by raw HTTP and reads its first chunk (a notification, or the JSON error). */
async function openStream(server: TestServer, token: string, id: string): Promise<{ text: string; cancel: () => Promise<void> }> {
  const res = await fetch(server.handle.url as string, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'events/stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'events/stream',
      params: { name: 'incident.created', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } } },
    }),
  });
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  return { text: new TextDecoder().decode(value), cancel: () => reader.cancel() };
}

describe('events: access, limits and webhooks over HTTP', () => {
  let server: TestServer;
  let alice: WireClient2026;
  let bob: WireClient2026;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer(
      { ...incidentServer(), customAuthValidator: bearerValidator },
      {
        target: TARGET,
        config: {
          webServer: { auth: { enabled: true } },
          mcp: { events: { maxStreamsPerPrincipal: 1, maxSubscriptionsPerPrincipal: 2, webhooks: { minTtlMs: 1000 } } },
          webhooks: { initialBackoffMs: 10, maxBackoffMs: 50, pollIntervalMs: 20 },
        },
      },
    );
    alice = server.wire2026({ headers: { authorization: 'Bearer alice' } });
    bob = server.wire2026({ headers: { authorization: 'Bearer bob' } });
    receiver = await startWebhookReceiver({ secret: SECRET });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('lists only the types the caller may see, and refuses the others with -32012 naming the scope', async () => {
    const names = async (c: WireClient2026) => ((await c.request('events/list')).events as Array<{ name: string }>).map((e) => e.name);
    expect(await names(alice)).toContain('audit.entry');
    expect(await names(bob)).not.toContain('audit.entry');
    await expect(bob.request('events/poll', { name: 'audit.entry', cursor: null })).rejects.toMatchObject({ code: -32012, data: { requiredScopes: ['audit:read'] } });
    await expect(alice.request('events/poll', { name: 'audit.entry', cursor: null })).resolves.toMatchObject({ events: [] });
  });

  it('binds a cursor to its principal: another caller cannot continue it', async () => {
    const { cursor } = await alice.request('events/poll', { name: 'incident.created', cursor: null });
    await expect(bob.request('events/poll', { name: 'incident.created', cursor })).rejects.toMatchObject({ code: -32602, data: { field: 'cursor' } });
  });

  it('caps the open push streams of a principal (-32013), and frees the place when one ends', async () => {
    const first = await openStream(server, 'bob', 'stream-1');
    // On the wire: the request's id as the subscription id of every notification.
    expect(first.text).toContain('"method":"notifications/events/active"');
    expect(first.text).toContain('"io.modelcontextprotocol/subscriptionId":"stream-1"');
    const refused = await openStream(server, 'bob', 'stream-2');
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: -32013, data: { limit: 'streams', max: 1 } } });
    // Another principal has places of its own.
    const other = await openStream(server, 'alice', 'stream-3');
    expect(other.text).toContain('notifications/events/active');
    await other.cancel();
    await first.cancel();
    const deadline = Date.now() + 5000;
    for (;;) {
      const next = await openStream(server, 'bob', 'stream-4');
      if (next.text.includes('notifications/events/active')) {
        await next.cancel();
        break;
      }
      if (Date.now() > deadline) throw new Error('the stream cap was not released');
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('webhooks: needs consent, signs each delivery with the client secret, once per subscription, in order', async () => {
    const sub = await alice.request('events/subscribe', {
      name: 'incident.created',
      arguments: { severity: 'P1' },
      delivery: { mode: 'webhook', url: receiver.url, secret: SECRET },
      ttlMs: 600_000,
    });
    expect(sub).toMatchObject({ id: expect.stringMatching(/^sub_/), truncated: false });
    expect(Date.parse(String(sub.refreshBefore))).toBeGreaterThan(Date.now());
    const verification = receiver.received.find((r) => r.body.includes('"verification"'));
    expect(verification?.verified).toBe(true);
    expect(verification?.headers['x-mcp-subscription-id']).toBe(sub.id);
    // Refreshing is idempotent: the same id, no second verification.
    const again = await alice.request('events/subscribe', { name: 'incident.created', arguments: { severity: 'P1' }, delivery: { mode: 'webhook', url: receiver.url, secret: SECRET } });
    expect(again.id).toBe(sub.id);
    expect(receiver.received.filter((r) => r.body.includes('"verification"'))).toHaveLength(1);

    await server.handle.events!.emit('incident.created', { id: 'w1', severity: 'P1' }, { eventId: 'w1' });
    await server.handle.events!.emit('incident.created', { id: 'w2', severity: 'P2' }, { eventId: 'w2' });
    await server.handle.events!.emit('incident.created', { id: 'w3', severity: 'P1' }, { eventId: 'w3' });
    await server.handle.events!.emit('incident.created', { id: 'w1', severity: 'P1' }, { eventId: 'w1' });
    const hooks = await receiver.waitFor((r) => r.filter((h) => h.body.includes('"eventId"')).length >= 2);
    const deliveries = hooks.filter((h) => h.body.includes('"eventId"'));
    expect(deliveries.map((h) => h.id)).toEqual(['w1', 'w3']);
    for (const h of deliveries) {
      expect(h.verified).toBe(true);
      expect(h.headers['x-mcp-subscription-id']).toBe(sub.id);
      expect(h.headers['content-type']).toBe('application/json');
      const body = JSON.parse(h.body) as Record<string, unknown>;
      expect(body).toMatchObject({ eventId: h.id, name: 'incident.created', data: { severity: 'P1' } });
      expect(typeof body.cursor).toBe('string');
      // Signed with the client's secret, verifiable with any Standard Webhooks library; not with another secret.
      expect(() => new Webhook(SECRET).verify(h.body, h.headers)).not.toThrow();
      expect(() => new Webhook(OTHER_SECRET).verify(h.body, h.headers)).toThrow();
    }
    // The cursor of the last delivery continues a poll of the same principal.
    const last = JSON.parse(deliveries[1]!.body) as { cursor: string };
    await expect(alice.request('events/poll', { name: 'incident.created', cursor: last.cursor })).resolves.toMatchObject({ events: [], truncated: false });
  });

  it('webhooks: refused without consent (-32015), with a bad secret or URL (-32602 naming the field), past the cap (-32013)', async () => {
    const silent = await startWebhookReceiver({ secret: SECRET, echoChallenges: false });
    try {
      await expect(
        alice.request('events/subscribe', { name: 'incident.created', delivery: { mode: 'webhook', url: silent.url, secret: SECRET } }),
      ).rejects.toMatchObject({ code: -32015, data: { reason: 'challenge_failed' } });
    } finally {
      await silent.close();
    }
    await expect(alice.request('events/subscribe', { name: 'incident.created', delivery: { mode: 'webhook', url: receiver.url, secret: 'whsec_c2hvcnQ=' } })).rejects.toMatchObject({
      code: -32602,
      data: { field: 'delivery.secret' },
    });
    await expect(alice.request('events/subscribe', { name: 'incident.created', delivery: { mode: 'webhook', url: 'ftp://example.com/x', secret: SECRET } })).rejects.toMatchObject({
      code: -32602,
      data: { field: 'delivery.url' },
    });
    await expect(alice.request('events/subscribe', { name: 'build.finished', delivery: { mode: 'webhook', url: receiver.url, secret: SECRET } })).rejects.toMatchObject({
      code: -32014,
      data: { value: 'webhook' },
    });
    // alice holds one subscription (previous test); a second is allowed, a third is not.
    await alice.request('events/subscribe', { name: 'presence.ping', delivery: { mode: 'webhook', url: receiver.url, secret: SECRET } });
    await expect(alice.request('events/subscribe', { name: 'audit.entry', delivery: { mode: 'webhook', url: receiver.url, secret: SECRET } })).rejects.toMatchObject({
      code: -32013,
      data: { limit: 'subscriptions', max: 2 },
    });
  });

  it('webhooks: one principal cannot cancel another\'s subscription; its owner can, and deliveries stop', async () => {
    const key = { name: 'presence.ping', delivery: { url: receiver.url } };
    await expect(bob.request('events/unsubscribe', key)).rejects.toMatchObject({ code: -32011, data: { kind: 'subscription' } });
    await expect(alice.request('events/unsubscribe', key)).resolves.toEqual(expect.objectContaining({}));
    await expect(alice.request('events/unsubscribe', key)).rejects.toMatchObject({ code: -32011 });
    const before = receiver.received.length;
    const out = await server.handle.events!.emit('presence.ping', { who: 'after-unsubscribe' });
    expect(out.webhooks).toBe(0);
    expect(receiver.received.length).toBe(before);
  });

  it('webhooks: a lapsed subscription gets nothing more and cannot be cancelled (-32011)', async () => {
    const sub = await bob.request('events/subscribe', { name: 'incident.created', delivery: { mode: 'webhook', url: receiver.url, secret: SECRET }, ttlMs: 1 });
    const expiry = Date.parse(String(sub.refreshBefore));
    expect(expiry - Date.now()).toBeLessThanOrEqual(1000);
    while (Date.now() <= expiry) await new Promise((r) => setTimeout(r, 25));
    const out = await server.handle.events!.emit('incident.created', { id: 'late', severity: 'P3' });
    expect(out.webhooks).toBe(0);
    await expect(bob.request('events/unsubscribe', { name: 'incident.created', delivery: { url: receiver.url } })).rejects.toMatchObject({ code: -32011 });
  });
});
