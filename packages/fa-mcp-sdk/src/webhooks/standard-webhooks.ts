/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com/), with
 * node:crypto: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`
 * under the secret's key (`whsec_<base64>`). The signer of deliveries and the
 * test receiver of `fa-mcp-sdk/testing` use it; the `standardwebhooks` package
 * (a devDependency) checks both in test/webhooks/standard-webhooks.test.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';
/** How far a timestamp may be from the receiver's clock, as the reference library allows. */
export const WEBHOOK_TOLERANCE_SEC = 5 * 60;

/** The HMAC key of a `whsec_<base64>` secret. */
export function webhookKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('A webhook secret cannot be empty');
  return key;
}

/** The `v1,<signature>` of one delivery attempt (timestamp in seconds). */
export function signWebhook(key: Buffer, id: string, timestampSec: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64')}`;
}

/**
 * Whether the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers
 * (lower-case names) sign `body` with `key`: one `v1` signature of the space
 * separated list matches, and the timestamp is within the tolerance of `nowSec`.
 */
export function verifyWebhook(key: Buffer, body: string, headers: Record<string, string | undefined>, nowSec = Math.floor(Date.now() / 1000)): boolean {
  const id = headers['webhook-id'];
  const stamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !stamp || !signatures || !/^\d+$/.test(stamp)) return false;
  const timestamp = Number(stamp);
  if (Math.abs(nowSec - timestamp) > WEBHOOK_TOLERANCE_SEC) return false;
  const expected = Buffer.from(signWebhook(key, id, timestamp, body));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return candidate.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
