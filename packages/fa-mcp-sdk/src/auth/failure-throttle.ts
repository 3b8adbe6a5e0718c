/**
 * The throttle of failed authentication (`webServer.auth.failureThrottle`).
 * Failed credentials are counted on the rate-limit store (so every instance
 * sharing it sees one count) under three keys:
 *
 * - the client address: over `perAddress`, the address is refused (429 with
 *   `Retry-After`) for `blockSec`;
 * - the user name from that address (the Basic user, the OAuth client id, the
 *   signed subject of an expired or revoked token): over `perUserAddress`, that
 *   name is refused from that address for `blockSec`, and from no other;
 * - the user name from every address: over `perUser` it is only slowed, never
 *   refused: every answer to credentials naming it (Basic, an OAuth client's),
 *   right or wrong, waits `delayMs`. A user name is not a secret, so a count of
 *   it alone must not lock its owner out; the owner, from an address of its
 *   own, gets in after the delay.
 *
 * Successes do not count. While an address (or a name from it) is blocked,
 * credentials that can be guessed (passwords, static tokens, a consumer's
 * validator) are refused even when right, so a guess cannot be told apart; a
 * verified signed token is not. The checks run right after verification and
 * before any wait, so a wait widens no window between a check and a count. A
 * waiting request holds a timer and its socket, nothing else; at most
 * `maxDelayed` wait at once in one process, and one more is answered 429 at
 * once, whatever its credentials.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /** Per client address; blocks. */
  byAddress: RateLimiterAbstract;
  /** Per user name from one client address; blocks. */
  byUserAddress: RateLimiterAbstract;
  /** Per user name from every address; no block, it slows (`delayMs`). */
  byUser: RateLimiterAbstract;
}

export interface SlowDownOptions {
  /** How long an attempt for a user name over its budget waits, in ms (0: not slowed). */
  delayMs: number;
  /** How many attempts may wait at once; one more is refused with 429. */
  maxDelayed: number;
  /** The wait (a test passes its own). */
  wait?: (ms: number) => Promise<unknown>;
}

/** The 429 of the throttle: JSON-RPC -32003 with `data.retryAfter`, and `Retry-After` on HTTP. */
export class AuthThrottledError extends RateLimitedError {
  constructor(retryAfterSec: number) {
    super('Too many failed authentication attempts; try again later', retryAfterSec, { error: 'too_many_failures' });
  }
}

const isLimiterAnswer = (value: unknown): value is RateLimiterRes => typeof value === 'object' && value !== null && 'msBeforeNext' in value;

/** One counter a failure goes to: `blocks` (429 over budget) or only slows. */
interface Budget {
  limiter: RateLimiterAbstract;
  key: string;
  blocks: boolean;
}

/**
 * Whether a refusal is a failed credential, what the throttle counts (`countMissing`: a request
 * without the standard credentials counts too, for a consumer's validator that reads its own).
 */
export function countsAsFailure(err: unknown, countMissing: boolean): boolean {
  return err instanceof AuthError && (err.kind === 'invalid_token' || err.kind === 'invalid_credentials' || (err.kind === 'missing' && countMissing));
}

const throttled = (waitMs: number) => new AuthThrottledError(Math.max(1, Math.ceil(waitMs / 1000)));

export class FailureThrottle {
  private waiting = 0;
  private readonly wait: (ms: number) => Promise<unknown>;

  constructor(
    private readonly limiters: FailureLimiters,
    private readonly slow: SlowDownOptions,
  ) {
    this.wait = slow.wait ?? ((ms) => sleep(ms));
  }

  /**
   * Counts a refusal when it is a failed credential (`countsAsFailure`).
   * Resolves with what to answer: the throttle's 429 once this failure is over
   * the budget of the address or of the name from it (then it does not count
   * for the name from every address); else the refusal, after
   * `delayMs` when `slowDown` (credentials that name their user: Basic, an OAuth
   * client's) and the name is over its budget from every address.
   */
  async refused(err: unknown, keys: FailureKeys, countMissing: boolean, slowDown = false): Promise<unknown> {
    if (!countsAsFailure(err, countMissing)) return err;
    const budgets = this.budgets(keys);
    const outcomes = await Promise.allSettled(budgets.map((b) => b.limiter.consume(b.key)));
    let blockedMs = 0;
    let slowed = false;
    outcomes.forEach((outcome, i) => {
      // Refused by the limiter (over its budget). A store that fails without its fallback lets the refusal stand.
      if (outcome.status !== 'rejected' || !isLimiterAnswer(outcome.reason)) return;
      if (budgets[i]?.blocks) blockedMs = Math.max(blockedMs, outcome.reason.msBeforeNext);
      else slowed = true;
    });
    if (blockedMs > 0) {
      // Refused from a blocked place anyway: not held against the name elsewhere, so a blocked guesser does not slow its owner.
      await Promise.all(budgets.filter((b) => !b.blocks).map((b) => b.limiter.reward(b.key).catch(() => undefined)));
      return throttled(blockedMs);
    }
    if (slowDown && slowed) return this.slowDown().then(() => err, (busy: unknown) => busy);
    return err;
  }

  /**
   * After credentials were accepted: throws the throttle's 429 while the
   * address, or the user name from it, is over its budget (a right guess is
   * refused like a wrong one); with `slowDown`, waits `delayMs` first while the
   * name is over its budget from every address, as a wrong guess would.
   */
  async assertOpen(keys: FailureKeys, slowDown = false): Promise<void> {
    const budgets = this.budgets(keys).filter((b) => b.blocks || slowDown);
    const answers = await Promise.all(budgets.map((b) => b.limiter.get(b.key).catch(() => null)));
    let blockedMs = 0;
    let slowed = false;
    budgets.forEach((b, i) => {
      const res = answers[i];
      if (!res) return;
      if (b.blocks && res.consumedPoints > b.limiter.points) blockedMs = Math.max(blockedMs, res.msBeforeNext);
      if (!b.blocks && res.consumedPoints >= b.limiter.points) slowed = true;
    });
    if (blockedMs > 0) throw throttled(blockedMs);
    if (slowed) await this.slowDown();
  }

  /**
   * Waits `delayMs`: right and wrong credentials alike, so a guesser cannot cut
   * the wait short by giving up early on a slow answer. When `maxDelayed`
   * requests already wait, throws the 429 at once instead (whatever the
   * credentials were), so waiting requests cannot pile up.
   */
  private async slowDown(): Promise<void> {
    if (this.slow.delayMs <= 0) return;
    if (this.waiting >= this.slow.maxDelayed) throw throttled(this.slow.delayMs);
    this.waiting++;
    try {
      await this.wait(this.slow.delayMs);
    } finally {
      this.waiting--;
    }
  }

  private budgets(keys: FailureKeys): Budget[] {
    const out: Budget[] = [];
    const address = keys.address ? addressKey(keys.address) : undefined;
    if (address) out.push({ limiter: this.limiters.byAddress, key: address, blocks: true });
    if (keys.user) {
      const user = userKey(keys.user);
      if (address) out.push({ limiter: this.limiters.byUserAddress, key: `${user}|${address}`, blocks: true });
      out.push({ limiter: this.limiters.byUser, key: user, blocks: false });
    }
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
