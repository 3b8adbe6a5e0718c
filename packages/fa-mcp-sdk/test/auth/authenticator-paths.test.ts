import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/core/auth-error.js';
import { Authenticator, type GroupSource } from '../../src/auth/authenticator.js';
import { Revocation } from '../../src/auth/revocation.js';
import type { AuthInfo, Credentials, Verifier } from '../../src/auth/types.js';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => logger };
const identity: AuthInfo = { subject: 'alice', scopes: ['read'], groups: ['staff'], claims: { jti: 'T1' } };
const request = (token: string) => ({ method: 'POST', path: '/mcp', headers: { authorization: `Bearer ${token}` }, query: {} });

function verifierOf(name: string, answer: (c: Credentials) => Promise<AuthInfo | undefined>): Verifier {
  return { name, verify: answer };
}

function authenticator(verifiers: Verifier[], extra: { subjects?: string[]; tokenIds?: string[]; check?: (a: AuthInfo) => Promise<boolean>; groups?: GroupSource } = {}) {
  const revocation = new Revocation({ subjects: extra.subjects ?? [], tokenIds: extra.tokenIds ?? [], ...(extra.check ? { check: extra.check } : {}) });
  return new Authenticator({ verifiers, revocation, allowQueryToken: false, logger, ...(extra.groups ? { groups: extra.groups } : {}) });
}

describe('Authenticator with one scheme and with several', () => {
  const ok = verifierOf('ok', async (c) => (c.scheme === 'bearer' && c.token === 'good' ? { ...identity, scopes: [...identity.scopes], groups: [...identity.groups] } : undefined));
  const refusing = verifierOf('refusing', async () => {
    throw new AuthError('invalid_token', 'bad signature', { reason: 'bad_signature' });
  });
  const other = verifierOf('other', async () => undefined);

  for (const [label, verifiers] of [
    ['one scheme', [ok]],
    ['several schemes', [other, ok]],
  ] as const) {
    it(`${label}: the caller, a copy of its own; a token nobody takes is refused`, async () => {
      const auth = authenticator([...verifiers]);
      const a = await auth.authenticate(request('good'));
      expect(a).toEqual(identity);
      a.groups.push('changed');
      expect((await auth.authenticate(request('good'))).groups).toEqual(['staff']);
      await expect(auth.authenticate(request('unknown'))).rejects.toMatchObject({ kind: 'invalid_token' });
    });

    it(`${label}: revocation is checked on every request (lists, then the consumer's check)`, async () => {
      let revoked = false;
      const auth = authenticator([...verifiers], { check: async () => revoked });
      await expect(auth.authenticate(request('good'))).resolves.toMatchObject({ subject: 'alice' });
      revoked = true;
      await expect(auth.authenticate(request('good'))).rejects.toMatchObject({ kind: 'invalid_token', reason: 'revoked' });
      await expect(authenticator([...verifiers], { subjects: ['ALICE'] }).authenticate(request('good'))).rejects.toMatchObject({ reason: 'revoked' });
      await expect(authenticator([...verifiers], { tokenIds: ['t1'] }).authenticate(request('good'))).rejects.toMatchObject({ reason: 'revoked' });
    });
  }

  it('a scheme that refuses: its error, as a rejection, with one scheme or several', async () => {
    await expect(authenticator([refusing]).authenticate(request('x'))).rejects.toMatchObject({ kind: 'invalid_token', message: 'bad signature' });
    await expect(authenticator([other, refusing]).authenticate(request('x'))).rejects.toMatchObject({ kind: 'invalid_token', message: 'bad signature' });
  });

  it('a scheme that throws at once (not a promise) is still a rejection, not a throw', async () => {
    const sync: Verifier = {
      name: 'sync',
      verify: () => {
        throw new AuthError('invalid_token', 'at once', { reason: 'malformed' });
      },
    };
    const pending = authenticator([sync]).authenticate(request('x'));
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toMatchObject({ message: 'at once' });
  });

  it('directory groups are added to the token groups', async () => {
    const auth = authenticator([ok], { groups: { groupsOf: async () => ['Admins', 'staff'] } });
    expect((await auth.authenticate(request('good'))).groups).toEqual(['staff', 'Admins']);
  });
});
