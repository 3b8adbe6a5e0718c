/**
 * A log line per attempt (failed, then delivered) with the webhook id,
 * endpoint, type and attempt number, and nowhere in the server's logs the
 * secret or the endpoint URL's credentials.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestServer, startWebhookReceiver } from '../../src/testing/index.js';
import { closeTicket } from './fixtures/doc-sender.js';
import { newSecret, until } from './webhook-harness.js';

describe('webhook logs', () => {
  it('log each attempt without the secret', async () => {
    const secret = newSecret();
    const receiver = await startWebhookReceiver({ secret });
    let calls = 0;
    receiver.respondWith(() => ({ status: ++calls === 1 ? 503 : 204 }));
    const logs = new PassThrough();
    let text = '';
    logs.on('data', (c: Buffer) => (text += c.toString()));
    const url = receiver.url.replace('http://', 'http://user:pa55word@');
    const s = await startTestServer(
      { tools: [closeTicket] },
      {
        logDestination: logs,
        config: { logger: { level: 'debug', format: 'json' }, webhooks: { endpoints: [{ name: 'tickets', url, secret }], initialBackoffMs: 20, pollIntervalMs: 20 } },
      },
    );
    let webhookId = '';
    try {
      const client = await s.connect();
      const result = await client.callTool({ name: 'close_ticket', arguments: { ticket: 'T-1' } });
      webhookId = (result.structuredContent as { event: string }).event;
      await until('delivered', async () => (await s.handle.webhooks!.outbox.countByStatus()).delivered === 1);
      await client.close();
    } finally {
      await s.stop();
      await receiver.close();
    }
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const attempts = lines.filter((l) => l.webhookId === webhookId);
    expect(attempts.map((l) => [l.msg, l.attempt, l.endpoint])).toEqual([
      ['webhook attempt failed; will retry', 1, 'tickets'],
      ['webhook delivered', 2, 'tickets'],
    ]);
    expect(text).not.toContain(secret.slice('whsec_'.length));
    expect(text).not.toContain('pa55word');
  });
});
