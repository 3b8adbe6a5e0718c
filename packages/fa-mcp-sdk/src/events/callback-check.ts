/**
 * The callback of a webhook subscription, before anything is sent to it: an https URL without
 * credentials or fragment (plain http only to a loopback address, where private networks are
 * allowed), a `whsec_` secret of 24-64 bytes, and — once per (principal, URL) — the endpoint's
 * consent: a signed `{ type: 'verification', challenge }` POST it answers with the challenge.
 * The POST connects through the address policy (no private, loopback or metadata addresses in
 * production, no redirects), like every delivery.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../core/errors.js';
import type { AddressPolicy } from '../webhooks/address-policy.js';
import type { WebhookSigner } from '../webhooks/webhook-signer.js';
import { CallbackEndpointError, type CallbackFailure } from './events-errors.js';

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** The longest answer read from a verification POST. */
const MAX_ANSWER_BYTES = 4096;

/** The callback URL, parsed; -32602 naming `delivery.url` when it may not be used. */
export function checkCallbackUrl(value: unknown, policy: AddressPolicy): URL {
  const refuse = (reason: string): never => {
    throw new ValidationError(`Invalid delivery.url: ${reason}`, { field: 'delivery.url', reason });
  };
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) refuse('a URL of at most 2048 characters is required');
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return refuse('not a URL');
  }
  if (url.username || url.password || url.hash) refuse('credentials and fragments are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:') {
    if (!(policy.allowPrivateNetworks && LOOPBACK.has(host))) refuse('must be https (plain http only to a loopback address outside production)');
  } else if (url.protocol !== 'https:') refuse('must be https');
  if (isIP(host)) {
    const refusal = policy.refusal(host);
    if (refusal) refuse(refusal);
  }
  return url;
}

/** The client's signing secret; -32602 naming `delivery.secret` when it is not a Standard Webhooks secret of 24-64 bytes. */
export function checkSecret(value: unknown): string {
  const m = typeof value === 'string' ? SECRET.exec(value) : null;
  const bytes = m?.[1] ? Buffer.from(m[1], 'base64').length : 0;
  if (!m || bytes < 24 || bytes > 64) {
    throw new ValidationError('Invalid delivery.secret: whsec_ followed by base64 of 24 to 64 random bytes is required', { field: 'delivery.secret', reason: 'not a whsec_ secret of 24-64 bytes' });
  }
  return String(value);
}

export interface VerifyRequest {
  url: URL;
  subscriptionId: string;
  signer: WebhookSigner;
  policy: AddressPolicy;
  timeoutMs: number;
  userAgent: string;
}

/** Sends the verification POST; resolves when the endpoint echoed the challenge, rejects with -32015 (a category) otherwise. */
export async function verifyCallback(req: VerifyRequest): Promise<void> {
  const challenge = randomBytes(24).toString('base64url');
  const body = JSON.stringify({ type: 'verification', challenge });
  const id = `msg_verification_${randomBytes(12).toString('hex')}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': req.userAgent,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': req.signer.sign(id, timestamp, body),
    'x-mcp-subscription-id': req.subscriptionId,
    'content-length': String(Buffer.byteLength(body)),
  };
  const answer = await post(req, headers, body);
  if ('failure' in answer) throw new CallbackEndpointError(answer.failure);
  if (answer.status >= 300) throw new CallbackEndpointError(answer.status >= 500 ? 'http_5xx' : 'http_4xx');
  let echoed: unknown;
  try {
    echoed = (JSON.parse(answer.body) as { challenge?: unknown }).challenge;
  } catch {
    echoed = undefined;
  }
  const given = Buffer.from(typeof echoed === 'string' ? echoed : '', 'utf8');
  const expected = Buffer.from(challenge, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CallbackEndpointError('challenge_failed');
}

type Answer = { status: number; body: string } | { failure: CallbackFailure };

function post(req: VerifyRequest, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    const host = req.url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && req.policy.refusal(host)) return resolve({ failure: 'connection_refused' });
    let settled = false;
    const done = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const client = req.url.protocol === 'https:' ? https : http;
    const request = client.request(req.url, { method: 'POST', headers, lookup: req.policy.lookup, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_ANSWER_BYTES) chunks.push(c);
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done({ failure: 'connection_refused' }));
    });
    const timer = setTimeout(() => {
      done({ failure: 'timeout' });
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      const tls = typeof err.code === 'string' && (err.code.startsWith('ERR_TLS') || err.code.includes('CERT') || err.code === 'EPROTO');
      done({ failure: tls ? 'tls_error' : 'connection_refused' });
    });
    request.end(body);
  });
}
