/**
 * Minting tokens of the configured mode, for the operators' endpoint, the
 * `fa-mcp token` CLI and `POST /oauth/token`: legacyAesCtr tokens from the
 * shared secret, JWTs from a signer (the embedded key, or a private key the
 * operator holds for a localKey deployment). remoteJwks tokens come from the
 * issuer, never from here.
 */
import type { AuthConfig } from '../config/sections/auth-config.js';
import { mintLegacyToken } from './jwt-legacy-aes-ctr.js';
import type { JwtSigner, MintedToken, MintInput } from './jwt-signer.js';

export type { MintedToken, MintInput };

export interface TokenMinter {
  readonly kind: 'legacyAesCtr' | 'jwt';
  mint(input: MintInput): Promise<MintedToken>;
}

export function createTokenMinter(auth: AuthConfig, signer: JwtSigner | undefined): TokenMinter | undefined {
  if (auth.jwtToken.mode === 'legacyAesCtr') {
    const secret = auth.jwtToken.encryptKey;
    return {
      kind: 'legacyAesCtr',
      mint: async (input) =>
        mintLegacyToken(secret, {
          subject: input.subject,
          ttlSec: input.ttlSec,
          ...(input.scopes ? { scopes: input.scopes } : {}),
          ...(input.groups ? { groups: input.groups } : {}),
          claims: { ...input.claims, ...(input.clientId ? { client_id: input.clientId } : {}) },
        }),
    };
  }
  if (signer) return { kind: 'jwt', mint: (input) => signer.mint(input) };
  return undefined;
}

/** Parses `30s`, `15m`, `12h`, `7d` or plain seconds. */
export function parseTtl(text: string): number {
  const m = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  if (!m) throw new Error(`Invalid lifetime "${text}" (use e.g. 3600, 30m, 12h, 7d)`);
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
  const sec = n * factor;
  if (sec < 1) throw new Error('A lifetime must be at least one second');
  return sec;
}
