import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressReporter, noopProgress, type ProgressUpdate } from '../../src/core/progress.js';

describe('progress reporter', () => {
  let sent: ProgressUpdate[];
  const send = (u: ProgressUpdate) => void sent.push(u);
  /** Lets queued sends run without moving the clock. */
  const settle = () => vi.advanceTimersByTimeAsync(0);
  const progresses = () => sent.map((u) => u.progress);

  beforeEach(() => {
    sent = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first value at once, with total and message', async () => {
    const r = createProgressReporter(send, 100);
    r.report(1, 10, 'starting');
    await settle();
    expect(sent).toEqual([{ progress: 1, total: 10, message: 'starting' }]);
  });

  it('is monotonic: equal and smaller values are dropped', async () => {
    const r = createProgressReporter(send, 0);
    for (const v of [1, 1, 0.5, 2, -1, Number.NaN, Number.POSITIVE_INFINITY, 3, 3]) r.report(v);
    await r.flush();
    expect(progresses()).toEqual([1, 2, 3]);
  });

  it('a value dropped as non-increasing is not sent later either', async () => {
    const r = createProgressReporter(send, 100);
    r.report(5);
    r.report(4);
    await vi.advanceTimersByTimeAsync(500);
    await r.flush();
    expect(progresses()).toEqual([5]);
  });

  it('throttles: values inside the window are held back, the last one is sent when the window ends', async () => {
    const r = createProgressReporter(send, 100);
    r.report(1);
    await vi.advanceTimersByTimeAsync(10);
    r.report(2);
    r.report(3, 10, 'three');
    await settle();
    expect(progresses()).toEqual([1]);
    await vi.advanceTimersByTimeAsync(89);
    expect(progresses()).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ progress: 1 }, { progress: 3, total: 10, message: 'three' }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(2);
  });

  it('a value after the window is sent at once', async () => {
    const r = createProgressReporter(send, 100);
    r.report(1);
    await vi.advanceTimersByTimeAsync(150);
    r.report(2);
    await settle();
    expect(progresses()).toEqual([1, 2]);
  });

  it('a burst sends about one value per window, in order, and ends on the final value', async () => {
    const r = createProgressReporter(send, 100);
    for (let i = 1; i <= 1_000; i++) {
      r.report(i, 1_000);
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(200);
    expect(sent.length).toBeLessThanOrEqual(11);
    expect(sent.length).toBeGreaterThanOrEqual(10);
    expect(sent.at(-1)).toEqual({ progress: 1_000, total: 1_000 });
    expect([...progresses()].sort((a, b) => a - b)).toEqual(progresses());
  });

  it('flush sends the held-back value now, once', async () => {
    const r = createProgressReporter(send, 100);
    r.report(1);
    r.report(2);
    await r.flush();
    expect(progresses()).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(500);
    await r.flush();
    expect(progresses()).toEqual([1, 2]);
  });

  it('flush with nothing held back sends nothing', async () => {
    const r = createProgressReporter(send, 100);
    await r.flush();
    r.report(1);
    await r.flush();
    expect(progresses()).toEqual([1]);
  });

  it('flush waits until every value has left (slow sends), and sends keep their order', async () => {
    const order: string[] = [];
    const r = createProgressReporter(async (u) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(`sent ${u.progress}`);
    }, 100);
    r.report(1);
    r.report(2);
    const flushed = r.flush().then(() => order.push('flushed'));
    await vi.advanceTimersByTimeAsync(100);
    await flushed;
    expect(order).toEqual(['sent 1', 'sent 2', 'flushed']);
  });

  it('a failing send (closed stream) breaks neither the caller nor later values', async () => {
    let calls = 0;
    const r = createProgressReporter((u) => {
      calls++;
      if (u.progress === 1) throw new Error('stream closed');
      sent.push(u);
    }, 0);
    expect(() => r.report(1)).not.toThrow();
    r.report(2);
    await expect(r.flush()).resolves.toBeUndefined();
    expect(calls).toBe(2);
    expect(progresses()).toEqual([2]);
  });

  it('a rejecting async send does not reject flush', async () => {
    const r = createProgressReporter(async () => {
      throw new Error('gone');
    }, 0);
    r.report(1);
    await expect(r.flush()).resolves.toBeUndefined();
  });

  it('noopProgress is always callable', async () => {
    expect(() => noopProgress.report(1)).not.toThrow();
    await expect(noopProgress.flush()).resolves.toBeUndefined();
  });
});
