/**
 * What an attempt's outcome means: delivered (2xx), retried later (network
 * error, timeout, 5xx, 429), or dead (any other answer, a refused address, or
 * the last attempt). Delays double from the initial one with jitter, and a
 * `Retry-After` of the receiver is honoured (capped at the longest delay).
 */

export interface RetrySettings {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** How one HTTP attempt ended, before policy. */
export type AttemptResult =
  | { kind: 'response'; status: number; retryAfter?: string }
  | { kind: 'error'; error: string; /** a policy refusal (private address): retrying cannot help */ refused?: boolean };

export type Verdict =
  | { action: 'delivered'; status: number }
  | { action: 'retry'; delayMs: number; error: string; status?: number }
  | { action: 'dead'; error: string; status?: number };

/** Exponential backoff with "equal jitter": half the delay fixed, half random. */
export function backoffMs(attempt: number, s: RetrySettings, random: () => number): number {
  const base = Math.min(s.maxBackoffMs, s.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (base / 2) * random());
}

/** `Retry-After` (seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The verdict on attempt number `attempt` (1 for the first). */
export function judge(result: AttemptResult, attempt: number, s: RetrySettings, now: number, random: () => number): Verdict {
  let error: string;
  let status: number | undefined;
  let retryAfterMs: number | undefined;
  if (result.kind === 'response') {
    status = result.status;
    if (status >= 200 && status < 300) return { action: 'delivered', status };
    const retryable = status >= 500 || status === 429;
    error = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
    if (!retryable) return { action: 'dead', error, status };
    retryAfterMs = parseRetryAfter(result.retryAfter, now);
  } else {
    error = result.error;
    if (result.refused) return { action: 'dead', error };
  }
  if (attempt >= s.maxAttempts) return { action: 'dead', error: `${error}; gave up after ${attempt} attempts`, ...(status !== undefined ? { status } : {}) };
  const delayMs = retryAfterMs !== undefined ? Math.min(s.maxBackoffMs, retryAfterMs) : backoffMs(attempt, s, random);
  return { action: 'retry', delayMs, error, ...(status !== undefined ? { status } : {}) };
}
