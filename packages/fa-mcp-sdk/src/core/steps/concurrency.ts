/**
 * Caps the tool calls one caller has in flight. The slot is released however
 * the call ends: result, error, timeout or cancellation.
 */
import { subjectKey } from '../caller-key.js';
import { RateLimitedError } from '../errors.js';
import type { PipelineStep } from '../pipeline.js';

export class ConcurrencyTracker {
  private readonly inFlight = new Map<string, number>();

  tryAcquire(key: string, max: number): boolean {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= max) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  release(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }

  count(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}

export function concurrencyStep(max: number, tracker = new ConcurrencyTracker(), onRefused?: (key: string) => void): PipelineStep {
  return {
    name: 'concurrency',
    methods: ['tools/call'],
    // Thens, not async/await: one promise per call instead of two (every tool call comes through here).
    run(op, next) {
      const key = subjectKey(op.ctx);
      if (!tracker.tryAcquire(key, max)) {
        onRefused?.(key);
        return Promise.reject(new RateLimitedError(`Too many calls in flight (at most ${max} per caller)`, 1, { maxConcurrent: max }));
      }
      let running: Promise<unknown>;
      try {
        running = next();
      } catch (err) {
        tracker.release(key);
        return Promise.reject(err);
      }
      return running.then(
        (result) => {
          tracker.release(key);
          return result;
        },
        (err: unknown) => {
          tracker.release(key);
          return Promise.reject(err);
        },
      );
    },
  };
}
