/**
 * Safe by default: targets on private, loopback or link-local addresses are
 * refused unless allowed, checked on the address connected to (a literal IP,
 * and what a name resolves to at connect time), so the refusal holds for a
 * name that points at loopback. A refused event is dead at once, not retried.
 */
import { describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../src/webhooks/address-policy.js';
import { startWebhookReceiver } from '../../src/testing/webhook-receiver.js';
import { closeAfterEach, manualClock, manualRuntime, newSecret, webhooksConfig } from './webhook-harness.js';

const track = closeAfterEach();

describe('address policy', () => {
  it('refuses non-public addresses and allows public ones', () => {
    const policy = new AddressPolicy(false);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(policy.refusal(a), a).toMatch(/refused/);
    }
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) expect(policy.refusal(a), a).toBeUndefined();
    expect(new AddressPolicy(true).refusal('127.0.0.1')).toBeUndefined();
  });
});

describe('private targets', () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    it(`refuses ${host} when private networks are not allowed (production default); the receiver gets nothing`, async () => {
      const secret = newSecret();
      const receiver = track(await startWebhookReceiver({ secret }));
      const url = receiver.url.replace('127.0.0.1', host);
      const runtime = track(await manualRuntime(webhooksConfig([{ name: 'internal', url, secret }]), manualClock(), { nodeEnv: 'production' }));
      await runtime.sender.send('x.y', {});
      await runtime.dispatcher.runOnce();
      const [dead] = await runtime.listDead();
      expect(dead?.lastError).toMatch(/refused: .* is a private, loopback or link-local address/);
      expect(dead?.attempts).toBe(1);
      expect(receiver.received).toHaveLength(0);
    });
  }

  it('delivers to loopback outside production, and when allowPrivateNetworks is set in production', async () => {
    const secret = newSecret();
    const receiver = track(await startWebhookReceiver({ secret }));
    const config = webhooksConfig([{ name: 'internal', url: receiver.url.replace('127.0.0.1', 'localhost'), secret }], { allowPrivateNetworks: true });
    const runtime = track(await manualRuntime(config, manualClock(), { nodeEnv: 'production' }));
    await runtime.sender.send('x.y', {});
    await runtime.dispatcher.runOnce();
    expect(receiver.received).toHaveLength(1);
  });
});
