/**
 * An operation's signal made on first read says what one made up front would
 * say: aborted with the reason of the abort (an AbortError without one),
 * whether read before or after it; the framework's own checks read the abort
 * without making a signal; assigning or spreading the operation behaves as
 * with a plain property.
 */
import { describe, expect, it } from 'vitest';
import { abortSourceOf, LazyAbort, withLazySignal } from '../../src/core/lazy-abort.js';
import { HandlerSignal } from '../../src/core/handler-signal.js';

describe('LazyAbort', () => {
  it('a signal read before the abort follows it, with its reason and one abort event', () => {
    const abort = new LazyAbort();
    const signal = abort.signal;
    let events = 0;
    signal.addEventListener('abort', () => events++);
    abort.abort('gone');
    abort.abort('again');
    expect([signal.aborted, signal.reason, events]).toEqual([true, 'gone', 1]);
    expect(abort.signal).toBe(signal);
  });

  it('a signal read after the abort is already aborted with its reason; no reason is an AbortError', () => {
    const abort = new LazyAbort();
    abort.abort();
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect((abort.signal.reason as DOMException).name).toBe('AbortError');
    expect(abort.reason).toBe(abort.signal.reason);
  });

  it('listeners run once on the abort, can be removed, and are not run for an abort that already happened', () => {
    const abort = new LazyAbort();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    abort.addEventListener('abort', () => calls.push('kept'));
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    abort.abort('x');
    abort.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual(['kept']);
  });

  it('drives a handler signal without making an AbortSignal of its own', () => {
    const abort = new LazyAbort();
    const handler = new HandlerSignal(abort);
    const signal = handler.signal;
    abort.abort('cancelled');
    expect([signal.aborted, signal.reason]).toEqual([true, 'cancelled']);
  });
});

describe('withLazySignal', () => {
  it('gives the operation a real AbortSignal on first read, and abortSourceOf the abort itself', () => {
    const abort = new LazyAbort();
    const op = withLazySignal({ method: 'tools/call' }, abort);
    expect(abortSourceOf(op)).toBe(abort);
    expect(Object.keys(op)).toEqual(['method', 'signal']);
    abort.abort('why');
    expect(op.signal).toBeInstanceOf(AbortSignal);
    expect([op.signal.aborted, op.signal.reason]).toEqual([true, 'why']);
  });

  it('a spread copy carries the signal as a value; an assigned signal replaces the lazy one everywhere', () => {
    const abort = new LazyAbort();
    const op = withLazySignal({ method: 'tools/call' }, abort);
    const copy = { ...op };
    expect(copy.signal).toBe(op.signal);
    expect(abortSourceOf(copy)).toBe(copy.signal);
    const mine = new AbortController();
    op.signal = mine.signal;
    expect(op.signal).toBe(mine.signal);
    expect(abortSourceOf(op)).toBe(mine.signal);
  });
});
