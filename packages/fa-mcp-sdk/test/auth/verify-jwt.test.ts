/**
 * The signed JWT modes (embedded, localKey, remoteJwks), rule by rule: each
 * claim the verifier checks (exp required, nbf, iat, iss, aud, within the
 * clock tolerance and not beyond), the algorithm allow-list (no `none`, no
 * HS256 made with the public key, no other algorithm of the key's type), and
 * the signature (tampered payload or signature, truncated, extended, removed,
 * another case, a foreign key). Each case is one test against the verifier the
 * mode's configuration builds; remoteJwks fetches its keys from a loopback
 * JWKS server. End to end over HTTP: security-suite.test.ts and modes.test.ts.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyObject } from 'node:crypto';
import type { Verifier } from '../../src/auth/types.js';
import { ecKeyPair, rsaKeyPair, signJwt, startJwksServer, tamperJwt, unsignedJwt, type JwksServer, type KeyPair, type SignOptions } from './helpers.js';
import { basicOf, bearerOf, builtVerifier, flipChar, swapCase, verdictOf, type Verdict } from './verdicts.js';

const ISS = 'https://issuer.verify.test';
const AUD = 'mcp-verify';
const TOLERANCE_SEC = 5;

/** What a mode's rules need: its verifier, how to sign a token it should accept, and a key it must not. */
interface Mode {
  verifier: Verifier;
  sign: (o?: SignOptions) => Promise<string>;
  signForeign: (o?: SignOptions) => Promise<string>;
  /** The public key, for the algorithm-confusion case. */
  publicKey: KeyObject;
  aud: string;
}

type Rule = [rule: string, token: (m: Mode) => Promise<string> | string, expected: Verdict];

const hs256WithPublicKey = (m: Mode) => {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(JSON.stringify({ sub: 'alice', iss: ISS, aud: m.aud, iat: now, exp: now + 300 })).toString('base64url');
  const secret = m.publicKey.export({ format: 'pem', type: 'spki' });
  return `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
};
const withSignature = async (m: Mode, edit: (sig: string) => string) => {
  const [h, p, s] = (await m.sign()).split('.') as [string, string, string];
  return `${h}.${p}.${edit(s)}`;
};

const RULES: Rule[] = [
  ['a valid token', (m) => m.sign(), 'accepted:alice'],
  ['expired beyond the clock tolerance', (m) => m.sign({ expIn: -60 }), 'refused:expired'],
  ['expired within the clock tolerance', (m) => m.sign({ expIn: -2 }), 'accepted:alice'],
  ['no exp at all', (m) => m.sign({ expIn: null }), 'refused:other'],
  ['not valid yet (nbf beyond the tolerance)', (m) => m.sign({ nbfIn: 120 }), 'refused:not_yet_valid'],
  ['nbf within the tolerance', (m) => m.sign({ nbfIn: 2 }), 'accepted:alice'],
  ['issued in the future (iat beyond the tolerance)', (m) => m.sign({ iatIn: 120 }), 'refused:not_yet_valid'],
  ['a wrong issuer', (m) => m.sign({ iss: 'https://evil.example' }), 'refused:wrong_issuer'],
  ['an issuer that extends the right one', (m) => m.sign({ iss: `${ISS}.evil.example` }), 'refused:wrong_issuer'],
  ['an issuer in another case', (m) => m.sign({ iss: ISS.toUpperCase() }), 'refused:wrong_issuer'],
  ['no issuer', (m) => m.sign({ iss: undefined }), 'refused:wrong_issuer'],
  ['a wrong audience', (m) => m.sign({ aud: 'another-service' }), 'refused:wrong_audience'],
  ['an audience that is a prefix of the right one', (m) => m.sign({ aud: m.aud.slice(0, -1) }), 'refused:wrong_audience'],
  ['no audience', (m) => m.sign({ aud: undefined }), 'refused:wrong_audience'],
  ['no subject', (m) => m.sign({ sub: '' }), 'refused:other'],
  ['alg none (unsigned)', (m) => unsignedJwt({ sub: 'alice', iss: ISS, aud: m.aud, exp: Math.floor(Date.now() / 1000) + 300 }), 'refused:invalid_signature'],
  ['HS256 keyed with the public key (algorithm confusion)', (m) => hs256WithPublicKey(m), 'refused:invalid_signature'],
  ['a tampered payload (signature kept)', async (m) => tamperJwt(await m.sign(), (c) => (c.sub = 'admin')), 'refused:invalid_signature'],
  ['a tampered signature (one character)', (m) => withSignature(m, (s) => flipChar(s, 10)), 'refused:invalid_signature'],
  ['a truncated signature', (m) => withSignature(m, (s) => s.slice(0, -8)), 'refused:invalid_signature'],
  ['the signature removed', (m) => withSignature(m, () => ''), 'refused:invalid_signature'],
  ['a prefix of the token (its last character cut)', async (m) => (await m.sign()).slice(0, -1), 'refused:malformed'],
  ['the token with characters appended', async (m) => `${await m.sign()}AAAA`, 'refused:invalid_signature'],
  ['the token in another case', async (m) => swapCase(await m.sign()), 'refused:malformed'],
  ['signed by another key', (m) => m.signForeign(), 'refused:invalid_signature'],
  ['not a JWT at all', () => 'garbage-token', 'not-mine'],
];

async function localMode(key: KeyPair, foreign: KeyPair, alg: string, verifier: Verifier, aud: string): Promise<Mode> {
  const base = (o: SignOptions = {}): SignOptions => ({ alg, iss: ISS, aud, kid: key.jwk.kid as string, ...o });
  return {
    verifier,
    sign: (o) => signJwt(key.privateKey, base(o)),
    signForeign: (o) => signJwt(foreign.privateKey, base(o)),
    publicKey: key.publicKey,
    aud,
  };
}

/** Each mode: its name, an algorithm of its key's type outside its allow-list (an EC P-256 key signs ES256 only), its setup. */
const modes: Array<[name: string, otherAlg: string | undefined, setup: () => Promise<{ mode: Mode; close?: () => Promise<void> }>]> = [
  [
    'embedded',
    undefined,
    async () => {
      const ec = await ecKeyPair();
      // the embedded mode's audience is the issuer unless set
      const verifier = await builtVerifier({ jwtToken: { mode: 'embedded', issuer: ISS, privateKey: ec.privatePem, clockToleranceSec: TOLERANCE_SEC } }, 'jwtToken:embedded');
      return { mode: await localMode(ec, await ecKeyPair('other'), 'ES256', verifier, ISS) };
    },
  ],
  [
    'localKey',
    'PS256',
    async () => {
      const rsa = await rsaKeyPair();
      const verifier = await builtVerifier(
        { jwtToken: { mode: 'localKey', publicKey: rsa.publicPem, issuer: ISS, audience: AUD, clockToleranceSec: TOLERANCE_SEC } },
        'jwtToken:localKey',
      );
      return { mode: await localMode(rsa, await rsaKeyPair('other'), 'RS256', verifier, AUD) };
    },
  ],
  [
    'remoteJwks',
    'PS256',
    async () => {
      const rsa = await rsaKeyPair('remote-1');
      const jwks: JwksServer = await startJwksServer([rsa.jwk]);
      const verifier = await builtVerifier(
        { jwtToken: { mode: 'remoteJwks', jwksUrl: jwks.url, issuer: ISS, audience: AUD, clockToleranceSec: TOLERANCE_SEC, algorithms: ['RS256'] } },
        'jwtToken:remoteJwks',
      );
      return { mode: await localMode(rsa, await rsaKeyPair('remote-1'), 'RS256', verifier, AUD), close: () => jwks.close() };
    },
  ],
];

describe.each(modes)('JWT %s: each rule', (_name, otherAlg, setup) => {
  let mode: Mode;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ mode, close } = await setup());
  });
  afterAll(async () => {
    await close?.();
  });

  it.each(RULES)('%s', async (_rule, token, expected) => {
    expect(await verdictOf(mode.verifier, bearerOf(await token(mode)))).toBe(expected);
  });

  it.runIf(otherAlg)(`an algorithm of the key type outside the allow-list (${otherAlg})`, async () => {
    expect(await verdictOf(mode.verifier, bearerOf(await mode.sign({ alg: otherAlg as string })))).toBe('refused:invalid_signature');
  });

  it('Basic credentials are not a token', async () => {
    expect(await verdictOf(mode.verifier, basicOf('alice', await mode.sign()))).toBe('not-mine');
  });

  it('a verified token is remembered, but an edited copy of it is still checked', async () => {
    const token = await mode.sign({ sub: 'carol' });
    expect(await verdictOf(mode.verifier, bearerOf(token))).toBe('accepted:carol');
    expect(await verdictOf(mode.verifier, bearerOf(token))).toBe('accepted:carol');
    expect(await verdictOf(mode.verifier, bearerOf(`${token}A`))).toBe('refused:invalid_signature');
    expect(await verdictOf(mode.verifier, bearerOf(tamperJwt(token, (c) => (c.sub = 'admin'))))).toBe('refused:invalid_signature');
  });
});

describe('JWT remoteJwks: keys of the issuer only', () => {
  it('a token whose kid the issuer does not publish: unknown_key', async () => {
    const rsa = await rsaKeyPair('published');
    const jwks = await startJwksServer([rsa.jwk]);
    try {
      const verifier = await builtVerifier({ jwtToken: { mode: 'remoteJwks', jwksUrl: jwks.url, issuer: ISS, audience: AUD } }, 'jwtToken:remoteJwks');
      const stranger = await rsaKeyPair('unpublished');
      const token = await signJwt(stranger.privateKey, { kid: 'unpublished', iss: ISS, aud: AUD });
      expect(await verdictOf(verifier, bearerOf(token))).toBe('refused:unknown_key');
    } finally {
      await jwks.close();
    }
  });
});
