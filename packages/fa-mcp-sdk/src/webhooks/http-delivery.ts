/**
 * One HTTP attempt: POST the body with the signed headers, no redirects
 * followed (Node's http client follows none; a 3xx is a failed attempt), the
 * connect-time address check of AddressPolicy, and a timeout over the whole
 * exchange. Error texts carry no URL (it may hold credentials) and no secret.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import type { AttemptResult } from './retry-policy.js';

export interface HttpAttempt {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type HttpPoster = (attempt: HttpAttempt) => Promise<AttemptResult>;

export function createHttpPoster(policy: AddressPolicy): HttpPoster {
  return (attempt) =>
    new Promise<AttemptResult>((resolve) => {
      const { url } = attempt;
      // A literal IP is connected to without a lookup: check it here.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const literal = isIP(host) ? policy.refusal(host) : undefined;
      if (literal) return resolve({ kind: 'error', error: literal, refused: true });
      const client = url.protocol === 'https:' ? https : http;
      let settled = false;
      const done = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = client.request(
        url,
        {
          method: 'POST',
          headers: { ...attempt.headers, 'content-length': String(Buffer.byteLength(attempt.body)) },
          lookup: policy.lookup,
          agent: false,
        },
        (res) => {
          const retryAfter = res.headers['retry-after'];
          // The answer's body is not used; read it so the socket closes cleanly.
          res.resume();
          res.on('end', () => done({ kind: 'response', status: res.statusCode ?? 0, ...(typeof retryAfter === 'string' ? { retryAfter } : {}) }));
          res.on('error', () => done({ kind: 'response', status: res.statusCode ?? 0, ...(typeof retryAfter === 'string' ? { retryAfter } : {}) }));
        },
      );
      const timer = setTimeout(() => {
        done({ kind: 'error', error: `timed out after ${attempt.timeoutMs} ms` });
        req.destroy();
      }, attempt.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        done({ kind: 'error', error: err.code === 'EWEBHOOKREFUSED' ? err.message : `${err.code ?? 'network error'}: ${err.message}`, ...(err.code === 'EWEBHOOKREFUSED' ? { refused: true } : {}) });
      });
      req.end(attempt.body);
    });
}
