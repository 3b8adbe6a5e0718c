/**
 * Signs access tokens with an asymmetric private key (the embedded mode, and
 * the CLI for localKey deployments that hold the private half) and publishes
 * the public half as a JWKS.
 */
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { algorithmsForKey } from './jwt-keys.js';

export interface MintInput {
  subject: string;
  ttlSec: number;
  scopes?: string[];
  groups?: string[];
  /** The OAuth client the token is for (client_credentials, ID-JAG). */
  clientId?: string;
  /** The `aud` of this token instead of the configured audience (the resource an ID-JAG named). */
  audience?: string | string[];
  claims?: Record<string, unknown>;
}

export interface MintedToken {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The `jti`: what `revoked.tokenIds` names to revoke this token. */
  tokenId: string;
}

export interface SignerOptions {
  issuer: string;
  audience: string;
  scopeClaim: string;
  groupsClaim: string;
}

export class JwtSigner {
  readonly alg: string;
  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicJwk: JWK,
    private readonly opts: SignerOptions,
  ) {
    this.alg = publicJwk.alg as string;
  }

  static async create(privateKey: KeyObject, opts: SignerOptions, alg?: string): Promise<JwtSigner> {
    if (privateKey.type !== 'private') throw new Error('Signing needs a private key');
    const chosen = alg ?? (algorithmsForKey(privateKey)[0] as string);
    const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(jwk);
    return new JwtSigner(privateKey, { ...jwk, kid, alg: chosen, use: 'sig' }, opts);
  }

  /** The public half, for verification. */
  get publicKeyObject(): KeyObject {
    return createPublicKey(this.privateKey);
  }

  get kid(): string {
    return this.publicJwk.kid as string;
  }

  /** The public JWKS (what /.well-known/jwks.json serves). */
  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(input: MintInput, now = Date.now()): Promise<MintedToken> {
    if (!input.subject.trim()) throw new Error('A token needs a subject');
    const iat = Math.floor(now / 1000);
    const exp = iat + input.ttlSec;
    const jti = randomUUID();
    const claims: Record<string, unknown> = {
      ...input.claims,
      ...(input.scopes?.length ? { [this.opts.scopeClaim]: input.scopes.join(' ') } : {}),
      ...(input.groups?.length ? { [this.opts.groupsClaim]: input.groups } : {}),
      ...(input.clientId ? { client_id: input.clientId } : {}),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: this.alg, kid: this.kid, typ: 'at+jwt' })
      .setIssuer(this.opts.issuer)
      .setAudience(input.audience ?? this.opts.audience)
      .setSubject(input.subject)
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(this.privateKey);
    return { token, expiresAt: exp, tokenId: jti };
  }
}
