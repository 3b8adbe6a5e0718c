/**
 * The legacyAesCtr token format, rule by rule: a token the server minted is
 * accepted until its expiry (within the clock tolerance), and refused when its
 * readable expiry was edited, a ciphertext or tag character changed, the tag is
 * missing (unless old untagged tokens are allowed), truncated, extended or in
 * another case, or it was minted with another secret. Each case is one test
 * against the verifier the configuration builds. End to end over HTTP:
 * security-suite.test.ts and modes.test.ts.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mintLegacyToken } from '../../src/auth/jwt-legacy-aes-ctr.js';
import type { Verifier } from '../../src/auth/types.js';
import { basicOf, bearerOf, builtVerifier, flipChar, verdictOf, type Verdict } from './verdicts.js';

const SECRET = 'legacy-shared-secret-0123456789abcdef';
const TOLERANCE_SEC = 5;

const mint = (o: { ttlSec?: number; now?: number; subject?: string; secret?: string } = {}) =>
  mintLegacyToken(o.secret ?? SECRET, { subject: o.subject ?? 'alice', ttlSec: o.ttlSec ?? 60 }, o.now ?? Date.now()).token;
/** The three parts of a tagged token: readable expiry (ms), hex(iv ‖ ciphertext), hex tag. */
const parts = (token: string) => token.split('.') as [string, string, string];

/** A token of older deployments (no tag), keyed as they were. */
function untagged(payload: Record<string, unknown>, secret = SECRET): string {
  const key = Buffer.from(createHash('sha256').update(secret).digest('base64').slice(0, 32));
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-ctr', key, iv);
  return `${String(payload.expire)}.${Buffer.concat([iv, c.update(JSON.stringify(payload)), c.final()]).toString('hex')}`;
}

const REFUSED_INTEGRITY: Verdict = 'refused:invalid_signature';
const RULES: Array<[rule: string, token: () => string, expected: Verdict]> = [
  ['a token the server minted', () => mint(), 'accepted:alice'],
  ['expired beyond the clock tolerance', () => mint({ ttlSec: 60, now: Date.now() - 120_000 }), 'refused:expired'],
  ['expired within the clock tolerance', () => mint({ ttlSec: 60, now: Date.now() - 62_000 }), 'accepted:alice'],
  [
    'its readable expiry edited (a day later)',
    () => {
      const [e, c, t] = parts(mint());
      return `${Number(e) + 86_400_000}.${c}.${t}`;
    },
    REFUSED_INTEGRITY,
  ],
  [
    'its readable expiry edited and the tag dropped',
    () => {
      const [e, c] = parts(mint());
      return `${Number(e) + 86_400_000}.${c}`;
    },
    REFUSED_INTEGRITY,
  ],
  [
    'a ciphertext character changed',
    () => {
      const [e, c, t] = parts(mint());
      return `${e}.${flipChar(c, 40)}.${t}`;
    },
    REFUSED_INTEGRITY,
  ],
  [
    'a tag character changed',
    () => {
      const [e, c, t] = parts(mint());
      return `${e}.${c}.${flipChar(t, 63)}`;
    },
    REFUSED_INTEGRITY,
  ],
  [
    'the tag missing',
    () => {
      const [e, c] = parts(mint());
      return `${e}.${c}`;
    },
    REFUSED_INTEGRITY,
  ],
  ['an old untagged token while those are not allowed', () => untagged({ user: 'erin', expire: Date.now() + 60_000 }), REFUSED_INTEGRITY],
  ['a prefix of the token (its last character cut)', () => mint().slice(0, -1), 'not-mine'],
  ['the token with a character appended', () => `${mint()}0`, 'not-mine'],
  ['the tag in upper case', () => mint().replace(/\.([0-9a-f]{64})$/, (_m, t: string) => `.${t.toUpperCase()}`), 'not-mine'],
  ['minted with another secret', () => mint({ secret: 'another-secret-entirely-0123456789' }), REFUSED_INTEGRITY],
  ['an empty token', () => '', 'not-mine'],
];

describe('legacyAesCtr: each rule', () => {
  let verifier: Verifier;
  const verify = async () =>
    (verifier ??= await builtVerifier({ jwtToken: { mode: 'legacyAesCtr', encryptKey: SECRET, clockToleranceSec: TOLERANCE_SEC } }, 'jwtToken:legacyAesCtr'));

  it.each(RULES)('%s', async (_rule, token, expected) => {
    expect(await verdictOf(await verify(), bearerOf(token()))).toBe(expected);
  });

  it('Basic credentials are not a token', async () => {
    expect(await verdictOf(await verify(), basicOf('alice', mint()))).toBe('not-mine');
  });
});

describe('legacyAesCtr with legacyAcceptUnsigned: old untagged tokens, each rule', () => {
  let verifier: Verifier;
  const verify = async () =>
    (verifier ??= await builtVerifier(
      { jwtToken: { mode: 'legacyAesCtr', encryptKey: SECRET, legacyAcceptUnsigned: true, clockToleranceSec: TOLERANCE_SEC } },
      'jwtToken:legacyAesCtr',
    ));
  const expire = () => Date.now() + 60_000;
  const cases: Array<[rule: string, token: () => string, expected: Verdict]> = [
    ['an old untagged token', () => untagged({ user: 'erin', expire: expire() }), 'accepted:erin'],
    ['an old untagged token, expired', () => untagged({ user: 'erin', expire: Date.now() - 60_000 }), 'refused:expired'],
    [
      'an old untagged token with its readable expiry edited',
      () => {
        const e = expire();
        const [, c] = untagged({ user: 'erin', expire: e }).split('.') as [string, string];
        return `${e + 86_400_000}.${c}`;
      },
      REFUSED_INTEGRITY,
    ],
    ['an old untagged token of another secret', () => untagged({ user: 'erin', expire: expire() }, 'another-secret-entirely-0123456789'), 'refused:malformed'],
    ['an old untagged token naming no user', () => untagged({ expire: expire() }), 'refused:other'],
    [
      'a tagged token with a wrong tag is still refused',
      () => {
        const [e, c, t] = parts(mint());
        return `${e}.${c}.${flipChar(t, 0)}`;
      },
      REFUSED_INTEGRITY,
    ],
  ];
  it.each(cases)('%s', async (_rule, token, expected) => {
    expect(await verdictOf(await verify(), bearerOf(token()))).toBe(expected);
  });
});
