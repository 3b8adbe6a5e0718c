/** Used assertion ids in this process's memory (state/assertion-ids.ts): one instance, lost on restart. */
import type { UsedAssertionIds } from './assertion-ids.js';

/** At most this many ids are held in memory; past it (all unexpired) a new one is refused with an error. */
const MEMORY_CAP = 100_000;

export class MemoryAssertionIds implements UsedAssertionIds {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly cap = MEMORY_CAP,
  ) {}

  firstUse(key: string, expiresAtMs: number): Promise<boolean> {
    const now = this.now();
    const until = this.used.get(key);
    if (until !== undefined && until > now) return Promise.resolve(false);
    if (this.used.size >= this.cap) this.sweep(now);
    if (this.used.size >= this.cap) return Promise.reject(new Error('Too many assertions in use at once to remember them all'));
    this.used.set(key, expiresAtMs);
    return Promise.resolve(true);
  }

  private sweep(now: number): void {
    for (const [key, until] of this.used) if (until <= now) this.used.delete(key);
  }
}

