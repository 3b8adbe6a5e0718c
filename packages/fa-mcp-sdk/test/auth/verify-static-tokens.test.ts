/**
 * Permanent server tokens, rule by rule: only the exact configured token is
 * accepted — never a prefix, a suffix, the token with characters added, in
 * another case, empty, or presented as a Basic password. Each case is one test
 * against the verifier the configuration builds; a refusal is "not mine" (the
 * next verifier may look; with none left the answer is 401 invalid_token, which
 * the end-to-end cases of security-suite.test.ts check over HTTP).
 */
import { describe, expect, it } from 'vitest';
import type { Verifier } from '../../src/auth/types.js';
import { basicOf, bearerOf, builtVerifier, flipChar, swapCase, verdictOf, type Verdict } from './verdicts.js';

const TOKEN = 'st-9f2c1e7a5b3d4c6e8a0b2d4f6a8c0e1b';
const OTHER = 'st-OTHER-0123456789abcdefghijklmnop';
const SHORT = 'st-short-1234567'; // outside production a short token is allowed (with a warning)

const ACCEPTED = /^accepted:server-token:[0-9a-f]{12}$/;
const cases: Array<[rule: string, credentials: ReturnType<typeof bearerOf>, expected: Verdict | RegExp]> = [
  ['the configured token', bearerOf(TOKEN), ACCEPTED],
  ['another configured token', bearerOf(OTHER), ACCEPTED],
  ['a configured token shorter than the others', bearerOf(SHORT), ACCEPTED],
  ['a prefix (the token without its last character)', bearerOf(TOKEN.slice(0, -1)), 'not-mine'],
  ['a prefix (half the token)', bearerOf(TOKEN.slice(0, TOKEN.length / 2)), 'not-mine'],
  ['a prefix (its first character)', bearerOf(TOKEN.slice(0, 1)), 'not-mine'],
  ['a prefix of the short token that is also a prefix of the long one', bearerOf('st-'), 'not-mine'],
  ['a suffix (the token without its first character)', bearerOf(TOKEN.slice(1)), 'not-mine'],
  ['a suffix (its last half)', bearerOf(TOKEN.slice(TOKEN.length / 2)), 'not-mine'],
  ['the token with a character appended', bearerOf(`${TOKEN}x`), 'not-mine'],
  ['the token with a character prepended', bearerOf(`x${TOKEN}`), 'not-mine'],
  ['the short token extended into the long one', bearerOf(`${SHORT}${TOKEN}`), 'not-mine'],
  ['the token twice', bearerOf(`${TOKEN}${TOKEN}`), 'not-mine'],
  ['two configured tokens joined', bearerOf(`${TOKEN}${OTHER}`), 'not-mine'],
  ['the token with a NUL appended', bearerOf(`${TOKEN}\0`), 'not-mine'],
  ['the token with surrounding spaces', bearerOf(` ${TOKEN} `), 'not-mine'],
  ['the token in upper case', bearerOf(TOKEN.toUpperCase()), 'not-mine'],
  ['the token with every letter in the other case', bearerOf(swapCase(OTHER)), 'not-mine'],
  ['one character changed (the last)', bearerOf(flipChar(TOKEN, TOKEN.length - 1)), 'not-mine'],
  ['one character changed (the first)', bearerOf(flipChar(TOKEN, 0)), 'not-mine'],
  ['one character changed (the middle)', bearerOf(flipChar(TOKEN, 17)), 'not-mine'],
  ['an empty token', bearerOf(''), 'not-mine'],
];

describe('permanent server tokens: each rule', () => {
  let verifier: Verifier;
  const verify = async () => (verifier ??= await builtVerifier({ permanentServerTokens: [TOKEN, '', OTHER, SHORT], serverTokenScopes: ['ops'] }, 'permanentServerTokens'));

  it.each(cases)('%s', async (_rule, credentials, expected) => {
    const verdict = await verdictOf(await verify(), credentials);
    if (expected instanceof RegExp) expect(verdict).toMatch(expected);
    else expect(verdict).toBe(expected);
  });

  it('the wrong scheme: the token as a Basic password (or user name) is not a server token', async () => {
    expect(await verdictOf(await verify(), basicOf('x', TOKEN))).toBe('not-mine');
    expect(await verdictOf(await verify(), basicOf(TOKEN, ''))).toBe('not-mine');
  });

  it('an accepted token carries the configured scopes and names the token by fingerprint, the same for the same token, never the token', async () => {
    const v = await verify();
    const [a, b, c] = await Promise.all([v.verify(bearerOf(TOKEN)), v.verify(bearerOf(TOKEN)), v.verify(bearerOf(OTHER))]);
    expect(a).toMatchObject({ scopes: ['ops'], groups: [], claims: { token_type: 'permanentServerToken' } });
    expect(a?.subject).toBe(b?.subject);
    expect(a?.subject).not.toBe(c?.subject);
    expect(JSON.stringify(a)).not.toContain(TOKEN);
  });

  it('an empty configured token accepts nothing, not even an empty one', async () => {
    const v = await builtVerifier({ permanentServerTokens: ['', TOKEN] }, 'permanentServerTokens');
    expect(await verdictOf(v, bearerOf(''))).toBe('not-mine');
  });
});
