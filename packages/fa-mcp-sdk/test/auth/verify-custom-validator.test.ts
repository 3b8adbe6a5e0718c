/**
 * A consumer's `customAuthValidator`, rule by rule, as the authenticator runs
 * it: tried only after the built-in schemes did not accept the request; its
 * identity is taken only with a subject; `undefined`, `false` or a thrown
 * AuthError refuse (the built-in scheme's own refusal stands when there was
 * one); it sees the request and the credentials found; and revocation still
 * applies to whom it accepts. Over HTTP: modes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/core/auth-error.js';
import { Authenticator } from '../../src/auth/authenticator.js';
import { basicVerifier } from '../../src/auth/basic.js';
import { Revocation } from '../../src/auth/revocation.js';
import { staticTokenVerifier } from '../../src/auth/static-tokens.js';
import type { AuthRequestInfo, CustomAuthValidator } from '../../src/auth/types.js';
import { authVerdict, quietLogger } from './verdicts.js';

const SERVER_TOKEN = 'st-9f2c1e7a5b3d4c6e8a0b2d4f6a8c0e1b';

function authenticator(custom: CustomAuthValidator, revokedSubjects: string[] = []) {
  return new Authenticator({
    verifiers: [staticTokenVerifier([SERVER_TOKEN], ['server']), basicVerifier({ username: 'ops', password: 'ops-password-long', scopes: [], groups: [] })],
    custom,
    revocation: new Revocation({ subjects: revokedSubjects, tokenIds: [] }),
    allowQueryToken: false,
    logger: quietLogger,
  });
}
const requestWith = (headers: Record<string, string>): AuthRequestInfo => ({ method: 'POST', path: '/mcp', headers, query: {} });
const byApiKey: CustomAuthValidator = (req) => (req.headers['x-api-key'] === 'k-alice' ? { subject: 'alice', scopes: ['reports:write'], groups: [], claims: {} } : undefined);

const RULES: Array<[rule: string, validator: CustomAuthValidator, headers: Record<string, string>, expected: string | RegExp]> = [
  ['its identity, from a header of its own', byApiKey, { 'x-api-key': 'k-alice' }, 'accepted:alice'],
  ['a wrong key of its own: undefined refuses', byApiKey, { 'x-api-key': 'k-alicE' }, 'refused:missing:missing_credentials'],
  ['a prefix of its key: refused', byApiKey, { 'x-api-key': 'k-alic' }, 'refused:missing:missing_credentials'],
  ['no key at all: refused', byApiKey, {}, 'refused:missing:missing_credentials'],
  ['false refuses', () => false, { 'x-api-key': 'k-alice' }, 'refused:missing:missing_credentials'],
  ['a thrown AuthError is the refusal', () => Promise.reject(new AuthError('invalid_credentials', 'key expired', { reason: 'expired' })), { 'x-api-key': 'k' }, 'refused:invalid_credentials:expired'],
  ['an identity without a subject is not taken', () => ({ subject: '', scopes: [], groups: [], claims: {} }), {}, 'error:customAuthValidator returned an identity without a subject'],
  [
    'an identity whose subject is not a string is not taken',
    () => ({ subject: 42 as unknown as string, scopes: [], groups: [], claims: {} }),
    {},
    'error:customAuthValidator returned an identity without a subject',
  ],
  ['a bearer token nobody else takes: its refusal names the token', () => undefined, { authorization: 'Bearer unknown-token' }, 'refused:invalid_token:other'],
  ['a wrong Basic password: the Basic refusal stands when it refuses too', () => undefined, { authorization: `Basic ${Buffer.from('ops:wrong').toString('base64')}` }, 'refused:invalid_credentials:other'],
  [
    'a wrong Basic password: it may still accept (it runs after the built-in schemes)',
    (req) => (req.credentials?.scheme === 'basic' && req.credentials.username === 'ops' ? { subject: 'ops-via-directory', scopes: [], groups: [], claims: {} } : undefined),
    { authorization: `Basic ${Buffer.from('ops:directory-password').toString('base64')}` },
    'accepted:ops-via-directory',
  ],
  ['not asked when a built-in scheme accepts', () => ({ subject: 'custom', scopes: [], groups: [], claims: {} }), { authorization: `Bearer ${SERVER_TOKEN}` }, /^accepted:server-token:[0-9a-f]{12}$/],
];

describe('customAuthValidator: each rule', () => {
  it.each(RULES)('%s', async (_rule, validator, headers, expected) => {
    const verdict = await authVerdict(authenticator(validator).authenticate(requestWith(headers)));
    if (expected instanceof RegExp) expect(verdict).toMatch(expected);
    else expect(verdict).toBe(expected);
  });

  it('its identity gets empty scopes, groups and claims where it gave none, and no more than it gave', async () => {
    const auth = await authenticator(() => ({ subject: 'bob' }) as never).authenticate(requestWith({}));
    expect(auth).toEqual({ subject: 'bob', scopes: [], groups: [], claims: {} });
    const scoped = await authenticator(byApiKey).authenticate(requestWith({ 'x-api-key': 'k-alice' }));
    expect(scoped.scopes).toEqual(['reports:write']);
  });

  it('sees the request and the credentials found in it', async () => {
    const seen: AuthRequestInfo[] = [];
    await authVerdict(authenticator((req) => (seen.push(req), undefined)).authenticate(requestWith({ authorization: 'Bearer some-token', 'x-extra': 'v' })));
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/mcp', headers: { 'x-extra': 'v' }, credentials: { scheme: 'bearer', token: 'some-token' } });
  });

  it('whom it accepts is still checked for revocation', async () => {
    expect(await authVerdict(authenticator(byApiKey, ['alice']).authenticate(requestWith({ 'x-api-key': 'k-alice' })))).toBe('refused:invalid_token:revoked');
  });
});
