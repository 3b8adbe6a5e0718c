/**
 * The webhooks section of FA-MCP-SDK-DOC/02-1-tools-and-api.md shows these
 * fixtures (the import path aside), and they work together: the tool's event
 * reaches the page's receiver, verified, once, even when sent twice.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../src/testing/index.js';
import { closeTicket } from './fixtures/doc-sender.js';
import { createReceiver, type WebhookEvent } from './fixtures/doc-receiver.js';
import { newSecret, until } from './webhook-harness.js';

const doc = readFileSync(new URL('../../../../FA-MCP-SDK-DOC/02-1-tools-and-api.md', import.meta.url), 'utf8');
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8').replace("'../../../src/index.js'", "'fa-mcp-sdk'");

describe('02-1 webhooks example', () => {
  it('the page shows the tested files', () => {
    expect(doc).toContain(fixture('doc-sender.ts'));
    expect(doc).toContain(fixture('doc-receiver.ts'));
  });

  it("the tool's event reaches the receiver verified, once", async () => {
    const secret = newSecret();
    const events: WebhookEvent[] = [];
    const receiver = createReceiver(secret, (e) => events.push(e));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const s = await startTestServer({ tools: [closeTicket] }, { config: { webhooks: { endpoints: [{ name: 'tickets', url, secret }], pollIntervalMs: 20 } } });
    try {
      const client = await s.connect();
      for (let i = 0; i < 2; i++) await client.callTool({ name: 'close_ticket', arguments: { ticket: 'T-9' } });
      await until('the event', () => events.length >= 1);
      await until('both queued sends settled', async () => (await s.handle.webhooks!.outbox.countByStatus()).delivered === 1);
      expect(events).toEqual([{ type: 'ticket.closed', timestamp: expect.any(String), data: { ticket: 'T-9' } }]);
      await client.close();
    } finally {
      await s.stop();
      receiver.close();
    }
  });
});
