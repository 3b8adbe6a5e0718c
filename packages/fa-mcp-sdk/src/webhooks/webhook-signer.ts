/**
 * Signs a delivery the Standard Webhooks way, with the `standardwebhooks`
 * package: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one signature per
 * secret (several during a rotation), space separated.
 */
import { Webhook } from 'standardwebhooks';

const SECRET_FORMAT = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export class WebhookSigner {
  private readonly keys: Webhook[];

  /** `secrets`: `whsec_<base64>` values, space separated. Throws without echoing them. */
  constructor(secrets: string, what: string) {
    const parts = secrets.split(/\s+/).filter((s) => s.length > 0);
    if (parts.length === 0) throw new Error(`${what}: no secret (set secret or secretEnv)`);
    for (const p of parts) if (!SECRET_FORMAT.test(p)) throw new Error(`${what}: a secret is not of the form whsec_<base64>`);
    this.keys = parts.map((p) => new Webhook(p));
  }

  /** The `webhook-signature` header value for one attempt. */
  sign(id: string, timestampSec: number, body: string): string {
    const at = new Date(timestampSec * 1000);
    return this.keys.map((k) => k.sign(id, at, body)).join(' ');
  }
}
