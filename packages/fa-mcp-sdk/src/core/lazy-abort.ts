/**
 * An abort whose AbortSignal is made only when someone reads it. Making an
 * AbortController costs about 5 µs on Node 20 (a transferable EventTarget),
 * a measurable share of a fast call, and most calls end without anyone
 * reading their signal: the fast paths give the operation a `signal` made on
 * first read, and the framework's own code (tool executor, outcome labels)
 * asks the abort itself (abortSourceOf) without making one.
 */

/** What the framework reads of an abort: an AbortSignal, or a LazyAbort standing for one. */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

const SOURCE = Symbol('fa-mcp.abortSource');

export class LazyAbort implements AbortSource {
  private controller: AbortController | undefined;
  private state: { reason: unknown } | undefined;
  private listeners: Array<() => void> | undefined;

  get aborted(): boolean {
    return this.state !== undefined;
  }

  get reason(): unknown {
    return this.state?.reason;
  }

  /** The AbortSignal, made now if nobody asked before (already aborted when the abort came first). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.state) this.controller.abort(this.state.reason);
    }
    return this.controller.signal;
  }

  /** Aborts once, as AbortController.abort does (no reason: an AbortError DOMException). */
  abort(reason?: unknown): void {
    if (this.state) return;
    const why = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.state = { reason: why };
    this.controller?.abort(why);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Listeners run once, on the abort (never when it already happened, as with an AbortSignal). */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.state) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listeners) this.listeners = this.listeners.filter((l) => l !== listener);
  }
}

/** `signal` of an operation made by withLazySignal: one shared accessor (no function or shape per call). */
const LAZY_SIGNAL: PropertyDescriptor = {
  get(this: { [SOURCE]: LazyAbort }): AbortSignal {
    return this[SOURCE].signal;
  },
  // Writable, as the plain property it stands for; the given signal is then the one that counts.
  set(this: { [SOURCE]?: LazyAbort }, value: unknown) {
    if (Object.hasOwn(this, SOURCE)) delete this[SOURCE];
    Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
  },
  enumerable: true,
  configurable: true,
};

/** `fields` with a `signal` made from `abort` on first read (spreading the object reads it). */
export function withLazySignal<T extends object>(fields: T, abort: LazyAbort): T & { signal: AbortSignal } {
  Object.defineProperty(fields, SOURCE, { value: abort, configurable: true });
  Object.defineProperty(fields, 'signal', LAZY_SIGNAL);
  return fields as T & { signal: AbortSignal };
}

/** What aborts `op`, read without making an AbortSignal when it was made by withLazySignal. */
export function abortSourceOf(op: { signal: AbortSignal }): AbortSource {
  return (op as { [SOURCE]?: LazyAbort })[SOURCE] ?? op.signal;
}
