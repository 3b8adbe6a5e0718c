/**
 * Signatures of anchors, chain starts and retention checkpoints. The built-in signer is
 * HMAC-SHA256 with `mcp.audit.anchors.key`: a key of the audit trail's own, independent of
 * authentication (on or off, keys rotated or generated per process), that a reviewer holds to
 * verify years later. The wiring may inject an asymmetric signer instead (`keySigner`, e.g. with
 * the server's configured JWT private key), so verification needs only the public key.
 */
import { createHash, createHmac, createPublicKey, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { AuditSignature } from './audit-record.js';

export interface AnchorSigner {
  /** `HS256`, or the JWS name of the key's algorithm. */
  readonly alg: string;
  readonly keyId: string;
  /** base64url signature of `text` (UTF-8). */
  sign(text: string): string;
}

/** Checks signatures; `undefined` when the signature is by a key this verifier does not hold. */
export interface AnchorVerifier {
  readonly description: string;
  verify(sig: AuditSignature, text: string): boolean | undefined;
}

/** Shortest accepted HMAC key, in characters. */
export const MIN_ANCHOR_KEY_LENGTH = 32;

const hmacKeyId = (key: string) => createHash('sha256').update(`fa-mcp-audit-anchor:${key}`).digest('hex').slice(0, 16);

export function hmacSigner(key: string): AnchorSigner {
  if (key.length < MIN_ANCHOR_KEY_LENGTH) throw new Error(`mcp.audit.anchors.key: at least ${MIN_ANCHOR_KEY_LENGTH} characters`);
  const keyId = hmacKeyId(key);
  return { alg: 'HS256', keyId, sign: (text) => createHmac('sha256', key).update(text, 'utf8').digest('base64url') };
}

export function hmacVerifier(key: string): AnchorVerifier {
  const keyId = hmacKeyId(key);
  return {
    description: `HMAC key ${keyId}`,
    verify(sig, text) {
      if (sig.alg !== 'HS256' || sig.keyId !== keyId) return undefined;
      const expected = createHmac('sha256', key).update(text, 'utf8').digest();
      const got = Buffer.from(sig.value, 'base64url');
      return got.length === expected.length && timingSafeEqual(got, expected);
    },
  };
}

interface Algorithm {
  alg: string;
  /** The digest `crypto.sign` takes (null: the key's own, Ed25519). */
  digest: string | null;
}

function algorithmOf(key: KeyObject): Algorithm {
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return { alg: 'EdDSA', digest: null };
    case 'rsa':
      return { alg: 'RS256', digest: 'sha256' };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'prime256v1') return { alg: 'ES256', digest: 'sha256' };
      if (curve === 'secp384r1') return { alg: 'ES384', digest: 'sha384' };
      if (curve === 'secp521r1') return { alg: 'ES512', digest: 'sha512' };
      throw new Error(`anchor key: unsupported EC curve ${curve ?? '?'}`);
    }
    default:
      throw new Error(`anchor key: unsupported key type ${key.asymmetricKeyType ?? key.type} (use Ed25519, EC P-256/384/521 or RSA)`);
  }
}

const publicKeyId = (publicKey: KeyObject) => createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('hex').slice(0, 16);

/** Signs with an asymmetric private key (ECDSA signatures in the JWS form, r || s). */
export function keySigner(privateKey: KeyObject): AnchorSigner {
  if (privateKey.type !== 'private') throw new Error('anchor key: a private key signs');
  const { alg, digest } = algorithmOf(privateKey);
  const keyId = publicKeyId(createPublicKey(privateKey));
  return { alg, keyId, sign: (text) => sign(digest, Buffer.from(text, 'utf8'), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url') };
}

export function publicKeyVerifier(publicKey: KeyObject): AnchorVerifier {
  const { alg, digest } = algorithmOf(publicKey);
  const keyId = publicKeyId(publicKey);
  return {
    description: `${alg} public key ${keyId}`,
    verify(sig, text) {
      if (sig.alg !== alg || sig.keyId !== keyId) return undefined;
      return verify(digest, Buffer.from(text, 'utf8'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig.value, 'base64url'));
    },
  };
}
