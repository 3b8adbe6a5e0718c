/**
 * Minting a token outside a running server (the `fa-mcp token` CLI, scripts,
 * tests), in the configured mode: legacyAesCtr from the shared secret, embedded
 * from the configured private key, localKey from a private key the operator
 * holds (checked against the configured public key). remoteJwks tokens come
 * from their issuer. The key and cipher code loads with the first call, not
 * with `import('fa-mcp-sdk')` (issue 24: import time).
 */
import type { JWK } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { AppConfig } from '../config/app-config.js';
import type { MintedToken, MintInput } from './jwt-signer.js';

export interface GenerateTokenOptions {
  /** PEM of the signing key, for localKey deployments (the configured one is used in embedded mode). */
  privateKey?: string;
}

export async function generateToken(config: Pick<AppConfig, 'webServer'>, input: MintInput, opts: GenerateTokenOptions = {}): Promise<MintedToken> {
  const jwt = config.webServer.auth.jwtToken;
  if (!Number.isInteger(input.ttlSec) || input.ttlSec < 1) throw new Error('ttlSec must be a positive integer');
  switch (jwt.mode) {
    case 'legacyAesCtr': {
      const { mintLegacyToken } = await import('./jwt-legacy-aes-ctr.js');
      return mintLegacyToken(jwt.encryptKey, {
        subject: input.subject,
        ttlSec: input.ttlSec,
        ...(input.scopes ? { scopes: input.scopes } : {}),
        ...(input.groups ? { groups: input.groups } : {}),
        ...(input.claims ? { claims: input.claims } : {}),
      });
    }
    case 'embedded':
    case 'localKey': {
      const pem = jwt.mode === 'embedded' ? opts.privateKey || jwt.privateKey : opts.privateKey;
      if (!pem) {
        throw new Error(
          jwt.mode === 'embedded'
            ? 'embedded mode: set webServer.auth.jwtToken.privateKey (a server with a generated key mints its own tokens only)'
            : 'localKey mode: give the private key that matches webServer.auth.jwtToken.publicKey',
        );
      }
      const { importPrivateKey } = await import('./jwt-keys.js');
      const key = importPrivateKey(pem);
      if (jwt.mode === 'localKey') await assertSameKey(key, jwt.publicKey);
      if (!jwt.issuer && jwt.mode === 'embedded') throw new Error('embedded mode: webServer.auth.jwtToken.issuer is required');
      const { JwtSigner } = await import('./jwt-signer.js');
      const signer = await JwtSigner.create(
        key,
        { issuer: jwt.issuer, audience: jwt.audience || jwt.issuer, scopeClaim: jwt.scopeClaim, groupsClaim: jwt.groupsClaim },
        jwt.algorithms[0],
      );
      return signer.mint(input);
    }
    default:
      throw new Error(`jwtToken.mode "${jwt.mode}" cannot mint tokens here${jwt.mode === 'remoteJwks' ? ': they come from the issuer' : ''}`);
  }
}

async function assertSameKey(privateKey: KeyObject, publicKeyText: string): Promise<void> {
  if (!publicKeyText) throw new Error('localKey mode: webServer.auth.jwtToken.publicKey is not set');
  const [{ calculateJwkThumbprint }, { createPublicKey }, { importPublicKey }] = await Promise.all([import('jose'), import('node:crypto'), import('./jwt-keys.js')]);
  const a = await calculateJwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' }) as JWK);
  const b = await calculateJwkThumbprint(importPublicKey(publicKeyText).export({ format: 'jwk' }) as JWK);
  if (a !== b) throw new Error('The private key does not match webServer.auth.jwtToken.publicKey');
}
