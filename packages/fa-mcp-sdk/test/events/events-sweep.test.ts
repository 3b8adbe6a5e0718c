/**
 * The events sweep keeps the webhook outbox bounded: a delivered delivery is deleted once it is as
 * old as the occurrences retention keeps (`mcp.events.retention.maxAgeMs`), with the occurrence
 * itself; before, every delivery of a long-lived subscription stayed in the outbox for ever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryMcpEventsStore } from '../../src/stores/index.js';
import { startTestServer, startWebhookReceiver, type TestServer, type WebhookReceiver } from '../../src/testing/index.js';
import { bearerValidator, incidentServer } from './fixtures/incident-server.js';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

describe('events sweep', () => {
  const store = new InMemoryMcpEventsStore();
  let server: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await startTestServer(
      { ...incidentServer(), customAuthValidator: bearerValidator, eventsStore: store },
      {
        target: { transport: 'http', era: '2026', label: 'http/2026' },
        config: {
          webServer: { auth: { enabled: true } },
          mcp: { events: { retention: { maxAgeMs: 1000 }, sweepIntervalMs: 100, webhooks: { minTtlMs: 1000 } } },
          webhooks: { pollIntervalMs: 20 },
        },
      },
    );
    receiver = await startWebhookReceiver({ secret: SECRET });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('deletes delivered webhook deliveries past the retention age, and keeps the subscription', async () => {
    const alice = server.wire2026({ headers: { authorization: 'Bearer alice' } });
    await alice.request('events/subscribe', { name: 'incident.created', delivery: { mode: 'webhook', url: receiver.url, secret: SECRET }, ttlMs: 600_000 });
    await server.handle.events!.emit('incident.created', { id: 's1', severity: 'P1' }, { eventId: 's1' });
    await receiver.waitFor((r) => r.some((h) => h.id === 's1'));
    const deliveredNow = async (want: (n: number) => boolean) => {
      const deadline = Date.now() + 15_000;
      while (!want((await store.outbox.countByStatus()).delivered) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    // Recorded as delivered (just after the receiver answered), then swept once a second old.
    await deliveredNow((n) => n === 1);
    expect((await store.outbox.countByStatus()).delivered).toBe(1);
    await deliveredNow((n) => n === 0);
    expect(await store.outbox.countByStatus()).toEqual({ pending: 0, delivered: 0, dead: 0 });
    // The subscription itself is untouched: the next occurrence is delivered.
    await server.handle.events!.emit('incident.created', { id: 's2', severity: 'P1' }, { eventId: 's2' });
    await receiver.waitFor((r) => r.some((h) => h.id === 's2'));
  });
});
