/**
 * The failure throttle alone, on in-memory limiters and a wait the test holds
 * and lets go (no clock): which answers wait `delayMs`, that a right and a
 * wrong credential wait alike, that blocking wins over waiting, and that at
 * most `maxDelayed` requests wait at once (one more is 429 at once, so waiting
 * requests cannot pile up). Over real HTTP: failure-throttle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/core/auth-error.js';
import { AuthThrottledError, FailureThrottle } from '../../src/auth/failure-throttle.js';
import { createFailureLimiters } from '../../src/state/rate-limiters.js';

const WRONG = () => new AuthError('invalid_credentials', 'Invalid user name or password');

/** A wait that ends only when the test says so. */
function heldWaits() {
  const pending: Array<{ ms: number; release: () => void }> = [];
  const wait = (ms: number) => new Promise<void>((resolve) => pending.push({ ms, release: resolve }));
  return { pending, wait };
}

/** Resolves once `predicate` holds (polled across turns of the event loop), or fails after 2 s. */
async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function throttle(settings: { perAddress?: number; perUserAddress?: number; perUser: number; delayMs?: number; maxDelayed?: number }) {
  const limiters = await createFailureLimiters({ perAddress: 1000, perUserAddress: 1000, windowSec: 60, blockSec: 120, ...settings });
  const held = heldWaits();
  const t = new FailureThrottle(limiters, { delayMs: settings.delayMs ?? 1500, maxDelayed: settings.maxDelayed ?? 100, wait: held.wait });
  return { t, held };
}

/** Fails the test if the promise has settled by now (it should be waiting). */
async function expectWaiting(p: Promise<unknown>): Promise<void> {
  const marker = Symbol('pending');
  expect(await Promise.race([p.then(() => 'settled', () => 'settled'), new Promise((resolve) => setImmediate(() => resolve(marker)))])).toBe(marker);
}

describe('failure throttle: slowing a user name over its budget', () => {
  it('under the budget nothing waits; from the budget on, right and wrong answers naming it wait delayMs, from any address', async () => {
    const { t, held } = await throttle({ perUser: 2 });
    const ops = (address: string) => ({ address, user: 'ops' });
    expect(await t.refused(WRONG(), ops('10.0.0.1'), false, true)).toBeInstanceOf(AuthError);
    await t.assertOpen(ops('10.0.0.9'), true);
    expect(held.pending).toHaveLength(0);
    // the second failure reaches the budget: answered at once; every answer after it waits
    expect(await t.refused(WRONG(), ops('10.0.0.2'), false, true)).toBeInstanceOf(AuthError);
    expect(held.pending).toHaveLength(0);

    const wrong = t.refused(WRONG(), ops('10.0.0.3'), false, true);
    await until(() => held.pending.length === 1);
    await expectWaiting(wrong);
    held.pending[0]?.release();
    expect(await wrong).toBeInstanceOf(AuthError); // a 401 after the wait, never a 429

    const right = t.assertOpen(ops('10.0.0.4'), true);
    await until(() => held.pending.length === 2);
    await expectWaiting(right);
    held.pending[1]?.release();
    await expect(right).resolves.toBeUndefined(); // admitted after the wait
    expect(held.pending.map((p) => p.ms)).toEqual([1500, 1500]);
  });

  it('slows only credentials that name their user (slowDown), and only that user', async () => {
    const { t, held } = await throttle({ perUser: 1 });
    await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true);
    // a token's signed subject counts, but its answers are not slowed
    expect(await t.refused(WRONG(), { address: '10.0.0.2', user: 'ops' }, false)).toBeInstanceOf(AuthError);
    await t.assertOpen({ address: '10.0.0.3', user: 'ops' });
    await t.assertOpen({ address: '10.0.0.3', user: 'someone-else' }, true);
    expect(held.pending).toHaveLength(0);
  });

  it('delayMs 0 slows nothing', async () => {
    const { t, held } = await throttle({ perUser: 1, delayMs: 0 });
    for (let i = 0; i < 3; i++) await t.refused(WRONG(), { address: `10.0.0.${i}`, user: 'ops' }, false, true);
    await t.assertOpen({ address: '10.0.0.9', user: 'ops' }, true);
    expect(held.pending).toHaveLength(0);
  });

  it('a blocked address or user name from it answers 429 at once, without waiting', async () => {
    const { t, held } = await throttle({ perUserAddress: 1, perUser: 1 });
    await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true);
    const over = await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true);
    expect(over).toBeInstanceOf(AuthThrottledError);
    expect((over as AuthThrottledError).data?.retryAfter).toBe(120);
    await expect(t.assertOpen({ address: '10.0.0.1', user: 'ops' }, true)).rejects.toBeInstanceOf(AuthThrottledError);
    expect(held.pending).toHaveLength(0);
  });

  it('failures answered 429 from a blocked place do not count for the name elsewhere', async () => {
    const { t, held } = await throttle({ perUserAddress: 1, perUser: 2 });
    await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true);
    for (let i = 0; i < 5; i++) expect(await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true)).toBeInstanceOf(AuthThrottledError);
    await t.assertOpen({ address: '10.0.0.2', user: 'ops' }, true); // one failure counted for "ops": not slowed
    expect(held.pending).toHaveLength(0);
    await t.refused(WRONG(), { address: '10.0.0.3', user: 'ops' }, false, true); // the second reaches perUser
    const next = t.assertOpen({ address: '10.0.0.4', user: 'ops' }, true);
    await until(() => held.pending.length === 1);
    held.pending[0]?.release();
    await next;
  });

  it('at most maxDelayed requests wait at once; one more is 429 at once (Retry-After: the delay), and a freed place is taken again', async () => {
    const { t, held } = await throttle({ perUser: 1, delayMs: 1500, maxDelayed: 2 });
    await t.refused(WRONG(), { address: '10.0.0.1', user: 'ops' }, false, true);
    const first = t.assertOpen({ address: '10.0.0.2', user: 'ops' }, true);
    const second = t.refused(WRONG(), { address: '10.0.0.3', user: 'ops' }, false, true);
    await until(() => held.pending.length === 2);
    // a right credential and a wrong one are refused alike while the places are taken
    const busyRight = await t.assertOpen({ address: '10.0.0.4', user: 'ops' }, true).then(() => undefined, (err: unknown) => err);
    expect(busyRight).toBeInstanceOf(AuthThrottledError);
    expect((busyRight as AuthThrottledError).data?.retryAfter).toBe(2);
    expect(await t.refused(WRONG(), { address: '10.0.0.5', user: 'ops' }, false, true)).toBeInstanceOf(AuthThrottledError);
    expect(held.pending).toHaveLength(2);

    held.pending[0]?.release(); // one of the two (whichever waited first) is answered, and frees its place
    await Promise.race([first, second]);
    const third = t.assertOpen({ address: '10.0.0.6', user: 'ops' }, true);
    await until(() => held.pending.length === 3);
    held.pending.forEach((p) => p.release());
    await expect(first).resolves.toBeUndefined();
    expect(await second).toBeInstanceOf(AuthError);
    await expect(third).resolves.toBeUndefined();
  });
});
