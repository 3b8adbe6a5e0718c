/**
 * Time limits as abort signals: a deadline that aborts with a reason saying
 * which limit ran out, and a signal that follows several others (what
 * `AbortSignal.any` does on Node ≥ 20.3, written out for every Node 20).
 */

/** The abort reason of a time limit (told apart from a caller giving up). */
export class DeadlineReached extends Error {
  constructor(readonly limit: string, readonly ms: number) {
    super(`${limit} of ${ms} ms reached`);
    this.name = 'DeadlineReached';
  }
}

export interface Deadline {
  signal: AbortSignal;
  /** Stops the timer (the signal stays as it is). */
  clear(): void;
}

/** A signal that aborts after `ms` with a DeadlineReached reason. */
export function deadline(ms: number, limit: string): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineReached(limit, ms)), ms);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** A signal aborted as soon as one of `signals` is, with that one's reason; `dispose` detaches it. */
export function anySignal(signals: Array<AbortSignal | undefined>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const already = present.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listeners = present.map((s) => {
    const onAbort = () => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    return () => s.removeEventListener('abort', onAbort);
  });
  return { signal: controller.signal, dispose: () => listeners.forEach((off) => off()) };
}
