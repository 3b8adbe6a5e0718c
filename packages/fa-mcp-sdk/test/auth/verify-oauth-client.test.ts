/**
 * Client authentication at `POST /oauth/token` (client_credentials), rule by
 * rule, over real HTTP: only a configured client id with exactly its secret
 * gets a token, by HTTP Basic (both parts form-urlencoded, RFC 6749 §2.3.1) or
 * by form fields — never a prefix, suffix or extension of the secret, another
 * case of the secret or the id, another client's secret, an empty secret, the
 * placeholder an unknown id is compared with, or no credentials. The failure
 * throttle is off here (failure-throttle.test.ts and the security suite cover it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestTarget } from '../../src/testing/index.js';
import { guardedServer, startAuthServer } from './helpers.js';
import { swapCase } from './verdicts.js';

const STATELESS: TestTarget = { transport: 'stateless', era: '2025', label: 'http-stateless/2025' };
const A = { id: 'client-a', secret: 'client-a-secret-0123456789abcdefghijkl' };
const B = { id: 'client-b', secret: 'client-b-secret-0123456789abcdefghijkl' };
const C = { id: 'client c/é', secret: 'c+secret/with%special:chars-0123456789' };

type How = { basic: [id: string, secret: string, encoded?: boolean] } | { form: Record<string, string> } | { header: string };

const RULES: Array<[rule: string, how: How, granted: boolean]> = [
  ['Basic: the right id and secret', { basic: [A.id, A.secret] }, true],
  ['form: the right id and secret', { form: { client_id: A.id, client_secret: A.secret } }, true],
  ['Basic: id and secret with reserved characters, form-urlencoded', { basic: [C.id, C.secret] }, true],
  ['form: id and secret with reserved characters', { form: { client_id: C.id, client_secret: C.secret } }, true],
  ['Basic: a secret with "+" sent unencoded (decodes to a space)', { basic: [C.id, C.secret, false] }, false],
  ['a wrong secret', { basic: [A.id, 'not-the-secret'] }, false],
  ['a prefix of the secret', { basic: [A.id, A.secret.slice(0, -1)] }, false],
  ['a suffix of the secret', { basic: [A.id, A.secret.slice(1)] }, false],
  ['the secret with a character appended', { basic: [A.id, `${A.secret}x`] }, false],
  ['form: the secret with a character appended', { form: { client_id: A.id, client_secret: `${A.secret}x` } }, false],
  ['the secret in another case', { basic: [A.id, swapCase(A.secret)] }, false],
  ['an empty secret', { basic: [A.id, ''] }, false],
  ['form: an empty secret', { form: { client_id: A.id, client_secret: '' } }, false],
  ['form: no secret at all', { form: { client_id: A.id } }, false],
  ["another client's secret", { basic: [A.id, B.secret] }, false],
  ['the client id in another case', { basic: [A.id.toUpperCase(), A.secret] }, false],
  ['a prefix of the client id', { basic: [A.id.slice(0, -1), A.secret] }, false],
  ['the client id with a character appended', { basic: [`${A.id}x`, A.secret] }, false],
  ['an unknown client', { basic: ['nobody', A.secret] }, false],
  ['the placeholder an unknown id is compared with', { basic: ['\0', '\0unknown-client\0'] }, false],
  ['form: the placeholder an unknown id is compared with', { form: { client_id: '\0', client_secret: '\0unknown-client\0' } }, false],
  ['Basic without a colon', { header: `Basic ${Buffer.from(`${A.id}${A.secret}`).toString('base64')}` }, false],
  ['the secret as a Bearer token', { header: `Bearer ${A.secret}` }, false],
  ['no credentials', { form: {} }, false],
];

describe('/oauth/token client authentication: each rule', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer(guardedServer([]), STATELESS, {
      webServer: {
        auth: {
          enabled: true,
          realm: 'oauth-rules',
          jwtToken: { mode: 'embedded', issuer: 'https://mcp.oauth-rules.test' },
          oauth: { clients: [A, B, C].map((c) => ({ clientId: c.id, clientSecret: c.secret })) },
          failureThrottle: { enabled: false },
        },
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function tokenRequest(how: How) {
    const enc = (s: string) => encodeURIComponent(s);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const form: Record<string, string> = { grant_type: 'client_credentials' };
    if ('basic' in how) {
      const [id, secret, encoded = true] = how.basic;
      headers.authorization = `Basic ${Buffer.from(encoded ? `${enc(id)}:${enc(secret)}` : `${id}:${secret}`, 'utf8').toString('base64')}`;
    } else if ('header' in how) headers.authorization = how.header;
    else Object.assign(form, how.form);
    const res = await fetch(new URL('/oauth/token', server.handle.url as string), { method: 'POST', headers, body: new URLSearchParams(form).toString() });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it.each(RULES)('%s', async (_rule, how, granted) => {
    const r = await tokenRequest(how);
    if (granted) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    } else {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: 'invalid_client' });
      expect(r.body).not.toHaveProperty('access_token');
    }
  });
});
