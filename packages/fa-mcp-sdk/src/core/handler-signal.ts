/**
 * The abort signal a tool handler receives: aborted by the client's
 * cancellation (the operation's signal) or by the tool timeout, whichever comes
 * first, and only while the call runs.
 *
 * Most handlers never look at their signal, and an AbortController with a
 * listener on the operation's signal is among the costliest things a call
 * allocates, so the controller is made when the handler first reads `signal`.
 * A signal made late is already aborted when the call was cancelled or timed
 * out before (with the reason of whichever came first), exactly as one made up
 * front would be; once the call has ended, later cancellations reach neither.
 */
import type { AbortSource } from './lazy-abort.js';

export class HandlerSignal {
  private controller: AbortController | undefined;
  /** An abort that happened while no controller existed: its reason. */
  private early: { reason: unknown } | undefined;
  private ended = false;
  private onCancel: (() => void) | undefined;

  constructor(private readonly upstream: AbortSource) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.early) controller.abort(this.early.reason);
      else if (!this.ended) {
        if (this.upstream.aborted) controller.abort(this.upstream.reason);
        else {
          this.onCancel = () => controller.abort(this.upstream.reason);
          this.upstream.addEventListener('abort', this.onCancel, { once: true });
        }
      }
    }
    return this.controller.signal;
  }

  /** The tool timed out: aborts with `reason`, unless the client cancelled first. */
  abort(reason: unknown): void {
    if (this.controller) {
      this.controller.abort(reason);
      return;
    }
    if (this.early || this.ended) return;
    this.early = { reason: this.upstream.aborted ? this.upstream.reason : reason };
  }

  /** The call ended: cancellations from now on are not passed on. */
  end(): void {
    if (this.ended) return;
    if (this.onCancel) {
      this.upstream.removeEventListener('abort', this.onCancel);
    } else if (!this.controller && !this.early && this.upstream.aborted) {
      this.early = { reason: this.upstream.reason };
    }
    this.ended = true;
  }
}
