/**
 * Asymmetric keys of the JWT modes: import from PEM or JWK, generate, and the
 * algorithm allow-list that fits a key. Symmetric keys, `none` and HS* are
 * refused here, so algorithm confusion (an HS256 token "signed" with a public
 * key) cannot be configured in.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';

export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

const EC_ALG: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The algorithms a key can verify, most common first. */
export function algorithmsForKey(key: KeyObject): string[] {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
    case 'rsa-pss':
      return ['PS256', 'PS384', 'PS512'];
    case 'ec': {
      const alg = EC_ALG[key.asymmetricKeyDetails?.namedCurve ?? ''];
      if (!alg) throw new Error(`Unsupported EC curve ${key.asymmetricKeyDetails?.namedCurve ?? '?'}`);
      return [alg];
    }
    case 'ed25519':
      return ['EdDSA'];
    default:
      throw new Error(`Unsupported key type ${key.asymmetricKeyType ?? key.type}; use RSA, EC (P-256/384/521) or Ed25519`);
  }
}

/** The configured allow-list, checked: asymmetric algorithms only, each one usable with the key when a key is known. */
export function allowedAlgorithms(configured: readonly string[], key: KeyObject | undefined, fallback: readonly string[]): string[] {
  const usable = key ? algorithmsForKey(key) : [...ASYMMETRIC_ALGORITHMS];
  const list = configured.length > 0 ? [...configured] : key ? [usable[0] as string] : [...fallback];
  for (const alg of list) {
    if (!(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg)) {
      throw new Error(`webServer.auth.jwtToken.algorithms: "${alg}" is not allowed (asymmetric algorithms only; never "none" or HS*)`);
    }
    if (!usable.includes(alg)) throw new Error(`webServer.auth.jwtToken.algorithms: "${alg}" does not fit the configured ${key?.asymmetricKeyType} key`);
  }
  return list;
}

function refuseSymmetric(key: KeyObject): KeyObject {
  if (key.type === 'secret') throw new Error('A symmetric key cannot be used here; configure an asymmetric (RSA, EC, Ed25519) key');
  return key;
}

/** A public key from PEM (SPKI or certificate) or a JWK given as JSON text. A private key yields its public half. */
export function importPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const jwk = JSON.parse(trimmed) as JsonWebKey;
    if (jwk.kty === 'oct') throw new Error('A symmetric JWK (kty "oct") cannot be used as a public key');
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
    return refuseSymmetric(createPublicKey({ key: pub, format: 'jwk' }));
  }
  return refuseSymmetric(createPublicKey(trimmed));
}

export function importPrivateKey(pem: string): KeyObject {
  return refuseSymmetric(createPrivateKey(pem.trim()));
}

/** A fresh P-256 key pair (ES256), for the embedded mode without a configured key. */
export function generateSigningKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/** PEM (PKCS#8) text of a new signing key: what `fa-mcp token --new-key` prints. */
export function newPrivateKeyPem(type: 'ec' | 'rsa' | 'ed25519' = 'ec'): string {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 3072 })
      : type === 'ed25519'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
