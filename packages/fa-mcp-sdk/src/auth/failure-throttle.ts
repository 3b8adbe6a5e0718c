/**
 * The throttle of failed authentication (`webServer.auth.failureThrottle`):
 * failed credentials are counted per client address and per user name (the
 * Basic user, the OAuth client id, the signed subject of an expired or revoked
 * token) on the rate-limit store, so a guesser is refused with 429 and
 * `Retry-After` once over a budget, on every instance sharing the store.
 * Successes do not count. While a key is blocked, credentials that can be
 * guessed (passwords, static tokens, a consumer's validator) are refused even
 * when right, so a guess cannot be told apart; a verified signed token is not.
 */
import { createHash } from 'node:crypto';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';
import { AuthError } from '../core/auth-error.js';

export interface FailureKeys {
  /** The client address, when known. */
  address?: string | undefined;
  /** The user name the failed credentials named, when known. */
  user?: string | undefined;
}

export interface FailureLimiters {
  byAddress: RateLimiterAbstract;
  byUser: RateLimiterAbstract;
}

/** The 429 of the throttle: JSON-RPC -32003 with `data.retryAfter`, and `Retry-After` on HTTP. */
export class AuthThrottledError extends RateLimitedError {
  constructor(retryAfterSec: number) {
    super('Too many failed authentication attempts; try again later', retryAfterSec, { error: 'too_many_failures' });
  }
}

const isLimiterAnswer = (value: unknown): value is RateLimiterRes => typeof value === 'object' && value !== null && 'msBeforeNext' in value;

export class FailureThrottle {
  constructor(private readonly limiters: FailureLimiters) {}

  /**
   * Counts a refusal when it is a failed credential (`countMissing`: a request
   * without the standard credentials counts too, for a consumer's validator that
   * reads its own). Resolves with what to answer: the refusal, or the throttle's
   * 429 once this failure is over a budget.
   */
  async refused(err: unknown, keys: FailureKeys, countMissing: boolean): Promise<unknown> {
    if (!(err instanceof AuthError)) return err;
    if (!(err.kind === 'invalid_token' || err.kind === 'invalid_credentials' || (err.kind === 'missing' && countMissing))) return err;
    const outcomes = await Promise.allSettled(this.each(keys, (limiter, key) => limiter.consume(key)));
    let waitMs = 0;
    for (const outcome of outcomes) {
      // Refused by the limiter (over its budget). A store that fails without its fallback lets the refusal stand.
      if (outcome.status === 'rejected' && isLimiterAnswer(outcome.reason)) waitMs = Math.max(waitMs, outcome.reason.msBeforeNext);
    }
    return waitMs > 0 ? new AuthThrottledError(Math.ceil(waitMs / 1000)) : err;
  }

  /** Throws the throttle's 429 while the address or the user name is over its budget. */
  async assertOpen(keys: FailureKeys): Promise<void> {
    const answers = await Promise.all(this.each(keys, (limiter, key) => limiter.get(key).then((res) => (res && res.consumedPoints > limiter.points ? res.msBeforeNext : 0), () => 0)));
    const waitMs = Math.max(0, ...answers);
    if (waitMs > 0) throw new AuthThrottledError(Math.ceil(waitMs / 1000));
  }

  private each<T>(keys: FailureKeys, fn: (limiter: RateLimiterAbstract, key: string) => Promise<T>): Promise<T>[] {
    const out: Promise<T>[] = [];
    if (keys.address) out.push(fn(this.limiters.byAddress, addressKey(keys.address)));
    if (keys.user) out.push(fn(this.limiters.byUser, userKey(keys.user)));
    return out;
  }
}

/** An IPv4 client reached over an IPv6 socket counts as its IPv4 address. */
function addressKey(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** User names are hashed: bounded keys, and no name the caller typed stored in the table. */
function userKey(user: string): string {
  return createHash('sha256').update(user, 'utf8').digest('base64url').slice(0, 32);
}
