/**
 * A running task's stage, as its handler reports it (`setTaskStatusMessage`):
 * written to the task record's `statusMessage`, so tasks/get on any instance
 * and the status notification show it. A handler may report as often as it
 * likes; the record is written sensibly:
 *
 * - one write at a time, and at most one every `minIntervalMs`: reports in
 *   between are coalesced, the latest wins (a client polling sees the stage
 *   the task is in, never a backlog);
 * - a report equal to the last one written is not written again;
 * - a message is cut to MAX_STATUS_MESSAGE characters;
 * - once the task's outcome is being recorded (`close`), nothing more is
 *   written: the outcome is the last word (a store refuses a write to a
 *   finished task anyway).
 */

/** The longest statusMessage kept, in characters. */
export const MAX_STATUS_MESSAGE = 1024;

/** The default spacing of statusMessage writes of one task. */
export const STATUS_MESSAGE_INTERVAL_MS = 250;

export interface TaskStatusMessagesOptions {
  /** Writes the message to the task record (and tells every instance). */
  write: (message: string) => Promise<unknown>;
  minIntervalMs?: number;
  /** A failed write (logged by the caller); the next report tries again. */
  onError?: (err: unknown) => void;
  now?: () => number;
}

export class TaskStatusMessages {
  /** The message to write next, when one waits. */
  private pending: string | undefined;
  /** The last message written (or being written). */
  private written: string | undefined;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(private readonly opts: TaskStatusMessagesOptions) {}

  /** Sets the stage the task is in (fire and forget; see the module note for how often it is written). */
  report(message: string): void {
    if (this.closed || typeof message !== 'string') return;
    const text = message.length > MAX_STATUS_MESSAGE ? message.slice(0, MAX_STATUS_MESSAGE) : message;
    this.pending = text === this.written ? undefined : text;
    this.schedule();
  }

  /** Writes nothing more (the task's outcome is being recorded, or the task stopped here). */
  close(): void {
    this.closed = true;
    this.pending = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.pending === undefined || this.writing || this.timer || this.closed) return;
    const now = (this.opts.now ?? Date.now)();
    const wait = this.lastWriteAt + (this.opts.minIntervalMs ?? STATUS_MESSAGE_INTERVAL_MS) - now;
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      this.timer.unref();
      return;
    }
    const message = this.pending;
    this.pending = undefined;
    this.written = message;
    this.lastWriteAt = now;
    this.writing = this.opts
      .write(message)
      .then(
        () => undefined,
        (err: unknown) => {
          this.written = undefined;
          this.opts.onError?.(err);
        },
      )
      .finally(() => {
        this.writing = undefined;
        this.schedule();
      });
  }
}
