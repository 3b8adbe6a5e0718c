/**
 * How a task's stage reports become writes of its statusMessage: one write at
 * a time and at most one per interval, the latest report wins, repeats and
 * reports after the outcome are not written, long messages are cut, a failed
 * write is reported and the next report tries again. The clock is vitest's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_STATUS_MESSAGE, TaskStatusMessages } from '../../src/tasks/task-status-messages.js';

/** A write the test settles itself. */
function writer() {
  const writes: string[] = [];
  const settle: Array<(ok: boolean) => void> = [];
  const write = (message: string) =>
    new Promise<void>((resolve, reject) => {
      writes.push(message);
      settle.push((ok) => (ok ? resolve() : reject(new Error('store down'))));
    });
  /** Settles the oldest unsettled write and lets its continuation run. */
  const finish = async (ok = true) => {
    settle.shift()?.(ok);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { writes, write, finish };
}

describe('TaskStatusMessages', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first report at once and coalesces a burst into one more write of the latest, an interval later', async () => {
    const w = writer();
    const stage = new TaskStatusMessages({ write: w.write, minIntervalMs: 250 });
    for (let i = 0; i < 1000; i++) stage.report(`step ${i}`);
    expect(w.writes).toEqual(['step 0']);
    await w.finish();
    expect(w.writes).toEqual(['step 0']);
    await vi.advanceTimersByTimeAsync(249);
    expect(w.writes).toEqual(['step 0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.writes).toEqual(['step 0', 'step 999']);
    await w.finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.writes).toHaveLength(2);
  });

  it('does not write the message it wrote last again, and writes a report that comes after the interval at once', async () => {
    const w = writer();
    const stage = new TaskStatusMessages({ write: w.write, minIntervalMs: 250 });
    stage.report('Stage 1');
    await w.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    stage.report('Stage 1');
    expect(w.writes).toEqual(['Stage 1']);
    stage.report('Stage 2');
    expect(w.writes).toEqual(['Stage 1', 'Stage 2']);
  });

  it('writes nothing once closed (the outcome is the last word), not even a report waiting for its interval', async () => {
    const w = writer();
    const stage = new TaskStatusMessages({ write: w.write, minIntervalMs: 250 });
    stage.report('a');
    await w.finish();
    stage.report('b');
    stage.close();
    await vi.advanceTimersByTimeAsync(1_000);
    stage.report('c');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.writes).toEqual(['a']);
  });

  it('cuts a long message, and reports a failed write, after which the same message is written again', async () => {
    const w = writer();
    const errors: unknown[] = [];
    const stage = new TaskStatusMessages({ write: w.write, minIntervalMs: 250, onError: (err) => errors.push(err) });
    stage.report('x'.repeat(5_000));
    expect(w.writes[0]).toHaveLength(MAX_STATUS_MESSAGE);
    await w.finish(false);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(250);
    stage.report('x'.repeat(5_000));
    expect(w.writes).toHaveLength(2);
  });
});
