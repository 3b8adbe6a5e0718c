/**
 * `webServer.auth.jwtToken.verifyCacheMs`: a verified token is taken as
 * verified again for that long, never past its `exp`; 0 checks the signature
 * every time. The key resolver counts the signature checks.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { jwtVerifier } from '../../src/auth/jwt-verifier.js';

const CLAIMS = { subjectClaim: 'sub', scopeClaim: 'scope', groupsClaim: 'groups' };

function setup(verifyCacheMs: number) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let checks = 0;
  const key = async () => {
    checks++;
    return publicKey as KeyObject;
  };
  const verifier = jwtVerifier({ name: 'jwt', key, algorithms: ['ES256'], clockToleranceSec: 0, verifyCacheMs, claimNames: CLAIMS });
  const sign = (expInSec: number, scope = 'a b') =>
    new SignJWT({ scope })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expInSec)
      .sign(privateKey);
  const verify = (token: string) => verifier.verify({ scheme: 'bearer', token, from: 'header' });
  return { verify, sign, checks: () => checks };
}

describe('JWT verification cache', () => {
  it('checks the signature of a token once while it is remembered, and gives the same identity', async () => {
    const { verify, sign, checks } = setup(30_000);
    const token = await sign(300);
    const first = await verify(token);
    const second = await verify(token);
    expect(checks()).toBe(1);
    expect(second).toEqual(first);
    expect(second).toMatchObject({ subject: 'alice', scopes: ['a', 'b'] });
    // A copy each time: a handler changing its identity does not change the next request's.
    expect(second).not.toBe(first);
    await verify(await sign(300, 'c'));
    expect(checks()).toBe(2);
  });

  it('checks every time with verifyCacheMs 0', async () => {
    const { verify, sign, checks } = setup(0);
    const token = await sign(300);
    await verify(token);
    await verify(token);
    expect(checks()).toBe(2);
  });

  it('never takes a token as verified past its exp', async () => {
    const { verify, sign, checks } = setup(30_000);
    // A minute of life cannot run out while the test runs; the clock (Date only) is moved past exp instead.
    const token = await sign(60);
    await verify(token);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      await expect(verify(token)).rejects.toMatchObject({ reason: 'expired' });
    } finally {
      vi.useRealTimers();
    }
    expect(checks()).toBe(2);
  });

  it('remembers nothing that failed', async () => {
    const { verify, checks } = setup(30_000);
    const forged = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl';
    // Refused each time as a bad signature (a bug's TypeError would not match), and checked each time.
    const refused = { name: 'AuthError', code: -32001, httpStatus: 401, reason: 'invalid_signature', message: 'The token signature is invalid' };
    await expect(verify(forged)).rejects.toMatchObject(refused);
    await expect(verify(forged)).rejects.toMatchObject(refused);
    expect(checks()).toBe(2);
  });
});
