/**
 * A task store refuses a new task past its `maxTasks` retained tasks. It is a
 * rate limit (-32003, HTTP 429, `data: { maxTasks, retryAfter: 5 }`): a
 * 2025-era client, which expects a CreateTaskResult, gets it as an error it can
 * retry on; a 2026-07-28 call gets its message as an `isError` tool result.
 */
import { ERROR_BRAND } from '../core/error-brand.js';
import { RateLimitedError } from '../core/errors.js';

/** Seconds a client is told to wait before it tries again. */
const RETRY_AFTER_SEC = 5;

export class TaskLimitError extends RateLimitedError {
  static override readonly [ERROR_BRAND]: string = 'TaskLimitError';
  readonly maxTasks: number;

  constructor(maxTasks: number) {
    super(`The server keeps at most ${maxTasks} tasks; try again when older tasks have finished or expired`, RETRY_AFTER_SEC, { maxTasks });
    this.maxTasks = maxTasks;
  }
}
