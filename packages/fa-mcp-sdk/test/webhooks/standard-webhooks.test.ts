/**
 * The Standard Webhooks signature of standard-webhooks.ts against the reference
 * `standardwebhooks` package: the same signatures, and the same verdict on
 * every request a receiver can get (valid, rotated, tampered, stale, early,
 * unsigned, another scheme).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, webhookKey } from '../../src/webhooks/standard-webhooks.js';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

/** The reference verdict: verify() throws on anything it does not accept. */
function referenceAccepts(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

describe('Standard Webhooks signatures', () => {
  it('signs as the reference library does', () => {
    for (const body of ['{"type":"task.completed","data":{}}', '', 'héllo ✓ wörld', 'x'.repeat(10_000)]) {
      const secret = newSecret();
      const id = `msg_${randomBytes(6).toString('hex')}`;
      const ts = now();
      expect(signWebhook(webhookKey(secret), id, ts, body)).toBe(new Webhook(secret).sign(id, new Date(ts * 1000), body));
    }
  });

  it('accepts a secret without the whsec_ prefix and refuses an empty one, as the reference does', () => {
    const raw = randomBytes(16).toString('base64');
    expect(webhookKey(raw).equals(webhookKey(`whsec_${raw}`))).toBe(true);
    expect(() => webhookKey('whsec_')).toThrow(/empty/);
    expect(() => new Webhook('whsec_')).toThrow();
  });

  it('gives the reference verdict on each request a receiver can get', () => {
    const secret = newSecret();
    const other = newSecret();
    const key = webhookKey(secret);
    const body = '{"type":"x","timestamp":"2026-01-01T00:00:00Z","data":{"n":1}}';
    const signed = (ts: number, keys = [key], id = 'msg_1') => ({
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': keys.map((k) => signWebhook(k, id, ts, body)).join(' '),
    });
    const cases: Array<[string, Record<string, string>, string, boolean]> = [
      ['signed now', signed(now()), body, true],
      ['signed 100 s ago', signed(now() - 100), body, true],
      ['rotation: old and new secret', signed(now(), [webhookKey(other), key]), body, true],
      ['another secret only', signed(now(), [webhookKey(other)]), body, false],
      ['a tampered body', signed(now()), body.replace('"n":1', '"n":2'), false],
      ['another id', { ...signed(now()), 'webhook-id': 'msg_2' }, body, false],
      ['signed 400 s ago', signed(now() - 400), body, false],
      ['signed 400 s ahead', signed(now() + 400), body, false],
      ['no signature', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now()) }, body, false],
      ['no id', { 'webhook-timestamp': String(now()), 'webhook-signature': signed(now())['webhook-signature'] }, body, false],
      ['a timestamp that is no number', { ...signed(now()), 'webhook-timestamp': 'soon' }, body, false],
      ['a v2 label on a v1 signature', { ...signed(now()), 'webhook-signature': signed(now())['webhook-signature'].replace('v1,', 'v2,') }, body, false],
      ['a truncated signature', { ...signed(now()), 'webhook-signature': signed(now())['webhook-signature'].slice(0, -4) }, body, false],
    ];
    for (const [name, headers, payload, accepted] of cases) {
      expect(verifyWebhook(key, payload, headers), name).toBe(accepted);
      expect(referenceAccepts(secret, payload, headers), `reference: ${name}`).toBe(accepted);
    }
  });
});
