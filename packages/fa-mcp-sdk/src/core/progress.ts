/**
 * Progress reporting for one request: monotonic (smaller or equal values are
 * dropped), throttled, and never losing the last value: a value held back by
 * the throttle is sent when the window ends or when the request finishes.
 */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ProgressReporter {
  report(progress: number, total?: number, message?: string): void;
  /** Sends a held-back value now and waits until every sent value left; call before the result is returned. */
  flush(): Promise<void>;
}

export const noopProgress: ProgressReporter = { report: () => undefined, flush: async () => undefined };

export function createProgressReporter(send: (u: ProgressUpdate) => void | Promise<void>, throttleMs: number): ProgressReporter {
  let last = -Infinity;
  let lastSentAt = 0;
  let pending: ProgressUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Notifications are sent in order, each after the previous one left, so none overtakes the result.
  let chain: Promise<void> = Promise.resolve();

  const emit = (u: ProgressUpdate) => {
    lastSentAt = Date.now();
    pending = undefined;
    chain = chain.then(async () => {
      try {
        await send(u);
      } catch {
        // a closed stream must not break the handler
      }
    });
  };

  return {
    report(progress, total, message) {
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= last) return;
      last = progress;
      const update: ProgressUpdate = { progress };
      if (total !== undefined) update.total = total;
      if (message !== undefined) update.message = message;
      const wait = lastSentAt + throttleMs - Date.now();
      if (throttleMs <= 0 || wait <= 0) {
        if (timer) clearTimeout(timer);
        timer = undefined;
        emit(update);
        return;
      }
      pending = update;
      if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          if (pending) emit(pending);
        }, wait);
        timer.unref();
      }
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (pending) emit(pending);
      await chain;
    },
  };
}
