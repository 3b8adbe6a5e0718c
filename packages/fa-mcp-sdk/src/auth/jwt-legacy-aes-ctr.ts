/**
 * The `legacyAesCtr` token format of earlier fa-mcp-sdk deployments:
 * `<expireMs>.<hex(iv ‖ AES-256-CTR(JSON payload))>`, keyed by a shared secret.
 *
 * AES-CTR alone does not detect tampering, so tokens minted here carry a third
 * part, an HMAC-SHA256 tag over the first two (key derived from the same
 * secret with HKDF). Untagged tokens of older deployments are accepted only
 * when `legacyAcceptUnsigned` is on. Either way the readable expiry prefix must
 * equal the encrypted `expire`, so it cannot be edited to extend a token.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { AuthError } from '../core/auth-error.js';
import { safeEqual } from './constant-time.js';
import { authInfoFromClaims, type ClaimNames } from './jwt-claims.js';
import type { Credentials, Verifier } from './types.js';

export const LEGACY_TOKEN_SHAPE = /^(\d{13,})\.([0-9a-fA-F]{34,})(?:\.([0-9a-f]{64}))?$/;
export const MIN_ENCRYPT_KEY_LENGTH = 16;

interface LegacyKeys {
  cipherKey: Buffer;
  macKey: Buffer;
}

function deriveKeys(secret: string): LegacyKeys {
  if (secret.length < MIN_ENCRYPT_KEY_LENGTH) {
    throw new Error(`webServer.auth.jwtToken.encryptKey must be at least ${MIN_ENCRYPT_KEY_LENGTH} characters`);
  }
  // The cipher key is what earlier deployments used (the first 32 characters of the base64 SHA-256), so their tokens still decrypt.
  const cipherKey = Buffer.from(createHash('sha256').update(secret).digest('base64').slice(0, 32), 'utf8');
  const macKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'fa-mcp-sdk legacyAesCtr integrity', 32));
  return { cipherKey, macKey };
}

const tag = (keys: LegacyKeys, body: string) => createHmac('sha256', keys.macKey).update(body).digest('hex');

export interface LegacyMintInput {
  subject: string;
  ttlSec: number;
  scopes?: string[];
  groups?: string[];
  claims?: Record<string, unknown>;
}

export function mintLegacyToken(secret: string, input: LegacyMintInput, now = Date.now()): { token: string; expiresAt: number; tokenId: string } {
  const keys = deriveKeys(secret);
  const user = input.subject.trim();
  if (!user) throw new Error('A token needs a subject');
  const expire = now + input.ttlSec * 1000;
  const jti = randomUUID();
  const payload = {
    ...input.claims,
    user,
    expire,
    iat: new Date(now).toISOString(),
    jti,
    ...(input.scopes?.length ? { scope: input.scopes.join(' ') } : {}),
    ...(input.groups?.length ? { groups: input.groups } : {}),
  };
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-ctr', keys.cipherKey, iv);
  const encrypted = Buffer.concat([iv, cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('hex');
  const body = `${expire}.${encrypted}`;
  return { token: `${body}.${tag(keys, body)}`, expiresAt: Math.floor(expire / 1000), tokenId: jti };
}

export interface LegacyVerifierOptions {
  secret: string;
  acceptUnsigned: boolean;
  clockToleranceSec: number;
  claimNames: ClaimNames;
}

export function legacyAesCtrVerifier(opts: LegacyVerifierOptions): Verifier {
  const keys = deriveKeys(opts.secret);
  const names = { ...opts.claimNames, subjectClaim: 'user' };
  return {
    name: 'jwtToken:legacyAesCtr',
    // Tagged tokens carry an HMAC of the shared secret; untagged ones could be edited (AES-CTR alone).
    signed: !opts.acceptUnsigned,
    async verify(credentials: Credentials) {
      if (credentials.scheme !== 'bearer') return undefined;
      const m = LEGACY_TOKEN_SHAPE.exec(credentials.token);
      if (!m) return undefined;
      const [, prefix, encrypted, mac] = m as unknown as [string, string, string, string | undefined];
      const body = `${prefix}.${encrypted}`;
      if (mac !== undefined) {
        if (!safeEqual(mac, tag(keys, body))) throw new AuthError('invalid_token', 'The token integrity check failed', { reason: 'invalid_signature' });
      } else if (!opts.acceptUnsigned) {
        throw new AuthError('invalid_token', 'The token carries no integrity tag', { reason: 'invalid_signature' });
      }
      const payload = decrypt(keys, encrypted);
      if (payload.expire !== Number(prefix)) throw new AuthError('invalid_token', 'The token integrity check failed', { reason: 'invalid_signature' });
      if (Date.now() > payload.expire + opts.clockToleranceSec * 1000) throw new AuthError('invalid_token', 'The token has expired', { reason: 'expired' });
      return authInfoFromClaims({ ...payload, exp: Math.floor(payload.expire / 1000) }, names);
    },
  };
}

function decrypt(keys: LegacyKeys, hex: string): Record<string, unknown> & { expire: number } {
  let parsed: unknown;
  try {
    const raw = Buffer.from(hex, 'hex');
    const decipher = createDecipheriv('aes-256-ctr', keys.cipherKey, raw.subarray(0, 16));
    const text = Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8');
    parsed = JSON.parse(text);
  } catch {
    throw new AuthError('invalid_token', 'The token cannot be decrypted', { reason: 'malformed' });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as { expire?: unknown }).expire !== 'number') {
    throw new AuthError('invalid_token', 'The token cannot be decrypted', { reason: 'malformed' });
  }
  return parsed as Record<string, unknown> & { expire: number };
}
