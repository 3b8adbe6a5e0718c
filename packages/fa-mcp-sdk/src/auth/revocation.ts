/**
 * Revoked callers: subjects and token ids from the configuration, plus an
 * optional check of the consumer's (a database of revoked users, say). A token
 * id is a token's `jti`, or the SHA-256 hex of the whole token for tokens that
 * have none (permanent server tokens, old legacy tokens).
 */
import { AuthError } from '../core/auth-error.js';
import { tokenFingerprint } from './constant-time.js';
import type { AuthInfo, RevocationCheck } from './types.js';

export interface RevocationOptions {
  subjects: readonly string[];
  tokenIds: readonly string[];
  check?: RevocationCheck;
}

export class Revocation {
  private readonly subjects: Set<string>;
  private readonly tokenIds: Set<string>;

  constructor(private readonly opts: RevocationOptions) {
    this.subjects = new Set(opts.subjects.map((s) => s.toLowerCase()));
    this.tokenIds = new Set(opts.tokenIds.map((t) => t.toLowerCase()));
  }

  /** Throws invalid_token when the caller or the token is revoked. */
  async assertNotRevoked(auth: AuthInfo, token?: string): Promise<void> {
    await this.checkNow(auth, token);
  }

  /**
   * As assertNotRevoked, answered at once from the configured lists (throws
   * when revoked); a promise only when the consumer's check must run too.
   */
  checkNow(auth: AuthInfo, token?: string): Promise<void> | undefined {
    if (this.subjects.size > 0 && this.subjects.has(auth.subject.toLowerCase())) {
      throw new AuthError('invalid_token', 'Access of this subject has been revoked', { reason: 'revoked', subject: auth.subject });
    }
    if (this.tokenIds.size > 0) {
      const jti = typeof auth.claims.jti === 'string' ? auth.claims.jti.toLowerCase() : undefined;
      if ((jti && this.tokenIds.has(jti)) || (token && this.tokenIds.has(tokenFingerprint(token)))) {
        throw new AuthError('invalid_token', 'The token has been revoked', { reason: 'revoked', subject: auth.subject });
      }
    }
    if (!this.opts.check) return undefined;
    return this.consumerCheck(auth);
  }

  private async consumerCheck(auth: AuthInfo): Promise<void> {
    if (this.opts.check && (await this.opts.check(auth))) throw new AuthError('invalid_token', 'Access has been revoked', { reason: 'revoked', subject: auth.subject });
  }
}
