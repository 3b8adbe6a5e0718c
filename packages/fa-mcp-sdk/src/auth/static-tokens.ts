/**
 * Permanent server tokens: long random strings shared with trusted callers,
 * compared in constant time. In production the server refuses to start with a
 * short token or one that looks like a sample.
 */
import { safeIndexOf, tokenFingerprint } from './constant-time.js';
import type { Credentials, Verifier } from './types.js';

export const MIN_PRODUCTION_SECRET_LENGTH = 32;

const SAMPLE_PATTERNS = [/^(change[-_ ]?me|changeit|secret|password|token|test|example|sample|default|dev|demo)/i, /^(.)\1+$/, /^(1234|abcd|qwerty|xxxx)/i];

/** Why a secret is unfit for production, or undefined when it is fine. */
export function weakSecretReason(secret: string, minLength = MIN_PRODUCTION_SECRET_LENGTH): string | undefined {
  if (secret.length < minLength) return `shorter than ${minLength} characters`;
  if (SAMPLE_PATTERNS.some((re) => re.test(secret))) return 'looks like a sample value';
  if (new Set(secret).size < 8) return 'has too few distinct characters';
  return undefined;
}

export function staticTokenVerifier(tokens: readonly string[], scopes: readonly string[]): Verifier {
  const list = tokens.filter((t) => t.length > 0);
  return {
    name: 'permanentServerTokens',
    async verify(credentials: Credentials) {
      if (credentials.scheme !== 'bearer' || list.length === 0) return undefined;
      const i = safeIndexOf(credentials.token, list);
      if (i < 0) return undefined; // maybe a JWT: let the next verifier look
      return {
        subject: `server-token:${tokenFingerprint(credentials.token).slice(0, 12)}`,
        scopes: [...scopes],
        groups: [],
        claims: { token_type: 'permanentServerToken' },
      };
    },
  };
}
