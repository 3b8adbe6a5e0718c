/**
 * Revocation, rule by rule: a configured subject (in any case) and only that
 * subject — not a prefix or an extension of it; a configured token id (`jti`,
 * in any case) and only that one; the SHA-256 hex of a whole token for tokens
 * without a `jti`; and the consumer's `isAuthRevoked`. Then through the
 * authenticator: a revoked caller is refused whatever scheme let it in. Over
 * HTTP: security-suite.test.ts, cli-token.test.ts, modes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/core/auth-error.js';
import { Authenticator } from '../../src/auth/authenticator.js';
import { tokenFingerprint } from '../../src/auth/constant-time.js';
import { Revocation } from '../../src/auth/revocation.js';
import { staticTokenVerifier } from '../../src/auth/static-tokens.js';
import type { AuthInfo } from '../../src/auth/types.js';
import { authVerdict, quietLogger } from './verdicts.js';

const JTI = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const TOKEN = 'st-9f2c1e7a5b3d4c6e8a0b2d4f6a8c0e1b';
const OTHER_TOKEN = 'st-OTHER-0123456789abcdefghijklmnop';

const who = (subject: string, claims: Record<string, unknown> = {}): AuthInfo => ({ subject, scopes: [], groups: [], claims });
const revocation = new Revocation({ subjects: ['Mallory', 'svc-bot'], tokenIds: [JTI.toUpperCase(), tokenFingerprint(TOKEN).toUpperCase()] });

/** `revoked` or `allowed`: what the configured lists say of this caller (and token). */
async function listVerdict(r: Revocation, auth: AuthInfo, token?: string): Promise<string> {
  try {
    await r.assertNotRevoked(auth, token);
    return 'allowed';
  } catch (err) {
    if (err instanceof AuthError && err.reason === 'revoked') return 'revoked';
    throw err;
  }
}

const RULES: Array<[rule: string, auth: AuthInfo, token: string | undefined, expected: 'revoked' | 'allowed']> = [
  ['a revoked subject', who('Mallory'), undefined, 'revoked'],
  ['a revoked subject in another case', who('mALLORY'), undefined, 'revoked'],
  ['a prefix of a revoked subject', who('Mallor'), undefined, 'allowed'],
  ['a revoked subject with characters appended', who('Mallory2'), undefined, 'allowed'],
  ['a revoked subject with characters prepended', who('xMallory'), undefined, 'allowed'],
  ['another subject', who('alice'), undefined, 'allowed'],
  ['a revoked jti', who('alice', { jti: JTI }), undefined, 'revoked'],
  ['a revoked jti in another case', who('alice', { jti: JTI.toUpperCase() }), undefined, 'revoked'],
  ['a prefix of a revoked jti', who('alice', { jti: JTI.slice(0, -1) }), undefined, 'allowed'],
  ['a revoked jti with characters appended', who('alice', { jti: `${JTI}0` }), undefined, 'allowed'],
  ['another jti', who('alice', { jti: 'another-id' }), undefined, 'allowed'],
  ['a revoked token by its fingerprint', who('server-token:x'), TOKEN, 'revoked'],
  ['another token', who('server-token:y'), OTHER_TOKEN, 'allowed'],
  ['a prefix of a revoked token', who('server-token:z'), TOKEN.slice(0, -1), 'allowed'],
  ['the fingerprint itself presented as a token', who('server-token:w'), tokenFingerprint(TOKEN), 'allowed'],
];

describe('revocation lists: each rule', () => {
  it.each(RULES)('%s', async (_rule, auth, token, expected) => {
    expect(await listVerdict(revocation, auth, token)).toBe(expected);
  });

  it('empty lists revoke nobody', async () => {
    expect(await listVerdict(new Revocation({ subjects: [], tokenIds: [] }), who('Mallory', { jti: JTI }), TOKEN)).toBe('allowed');
  });
});

describe("revocation: the consumer's check (isAuthRevoked)", () => {
  it('true revokes, false allows; it sees the caller, after the lists allowed it', async () => {
    const seen: string[] = [];
    const r = new Revocation({ subjects: ['mallory'], tokenIds: [], check: (auth) => (seen.push(auth.subject), auth.subject === 'eve') });
    expect(await listVerdict(r, who('eve'))).toBe('revoked');
    expect(await listVerdict(r, who('alice'))).toBe('allowed');
    expect(await listVerdict(r, who('mallory'))).toBe('revoked');
    expect(seen).toEqual(['eve', 'alice']);
  });
});

describe('revocation through the authenticator', () => {
  const authenticator = (subjects: string[], tokenIds: string[]) =>
    new Authenticator({
      verifiers: [staticTokenVerifier([TOKEN, OTHER_TOKEN], [])],
      revocation: new Revocation({ subjects, tokenIds }),
      allowQueryToken: false,
      logger: quietLogger,
    });
  const request = (token: string) => ({ method: 'POST', path: '/mcp', headers: { authorization: `Bearer ${token}` }, query: {} });

  it('a server token revoked by fingerprint is refused (invalid_token, revoked); another is not', async () => {
    const auth = authenticator([], [tokenFingerprint(TOKEN)]);
    expect(await authVerdict(auth.authenticate(request(TOKEN)))).toBe('refused:invalid_token:revoked');
    expect(await authVerdict(auth.authenticate(request(OTHER_TOKEN)))).toMatch(/^accepted:server-token:/);
  });

  it('a revoked subject is refused whatever its credentials', async () => {
    const subject = (await authenticator([], []).authenticate(request(OTHER_TOKEN))).subject;
    expect(await authVerdict(authenticator([subject.toUpperCase()], []).authenticate(request(OTHER_TOKEN)))).toBe('refused:invalid_token:revoked');
  });
});
