/**
 * HTTP Basic authentication against one configured user. Both the name and the
 * password are compared in constant time, and both always (no early exit).
 */
import { AuthError } from '../core/auth-error.js';
import { safeEqual } from './constant-time.js';
import type { Credentials, Verifier } from './types.js';

export interface BasicUser {
  username: string;
  password: string;
  scopes: string[];
  groups: string[];
}

export function basicVerifier(user: BasicUser): Verifier {
  return {
    name: 'basic',
    async verify(credentials: Credentials) {
      if (credentials.scheme !== 'basic') return undefined;
      const nameOk = safeEqual(credentials.username, user.username);
      const passOk = safeEqual(credentials.password, user.password);
      if (!(nameOk && passOk)) throw new AuthError('invalid_credentials', 'Invalid user name or password');
      return { subject: user.username, scopes: [...user.scopes], groups: [...user.groups], claims: { auth: 'basic' } };
    },
  };
}
