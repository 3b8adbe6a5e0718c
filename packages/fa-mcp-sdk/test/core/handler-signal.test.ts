/**
 * The handler's abort signal is made on first read; whenever it is read, it
 * says what a signal made up front would say: aborted by a cancellation or a
 * timeout during the call (the first one's reason), never by one after the call.
 */
import { describe, expect, it } from 'vitest';
import { HandlerSignal } from '../../src/core/handler-signal.js';

const CANCEL = new Error('cancelled by the client');
const TIMEOUT = new Error('timed out');

function setup() {
  const client = new AbortController();
  return { client, hs: new HandlerSignal(client.signal) };
}

describe('HandlerSignal', () => {
  it('read first: follows a later cancellation, with its reason and its abort event', () => {
    const { client, hs } = setup();
    const signal = hs.signal;
    let events = 0;
    signal.addEventListener('abort', () => events++);
    expect(signal.aborted).toBe(false);
    client.abort(CANCEL);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(CANCEL);
    expect(events).toBe(1);
    expect(hs.signal).toBe(signal);
  });

  it('read after a cancellation: already aborted with its reason', () => {
    const { client, hs } = setup();
    client.abort(CANCEL);
    expect(hs.signal.aborted).toBe(true);
    expect(hs.signal.reason).toBe(CANCEL);
  });

  it('read after a timeout: aborted with the timeout; a later cancellation does not change the reason', () => {
    const { client, hs } = setup();
    hs.abort(TIMEOUT);
    client.abort(CANCEL);
    expect(hs.signal.aborted).toBe(true);
    expect(hs.signal.reason).toBe(TIMEOUT);
  });

  it('a cancellation before the timeout keeps its reason, read before or after', () => {
    const late = setup();
    late.client.abort(CANCEL);
    late.hs.abort(TIMEOUT);
    expect(late.hs.signal.reason).toBe(CANCEL);

    const early = setup();
    const signal = early.hs.signal;
    early.client.abort(CANCEL);
    early.hs.abort(TIMEOUT);
    expect(signal.reason).toBe(CANCEL);
  });

  it('after the call ended, a cancellation reaches neither a signal read before nor one read after', () => {
    const before = setup();
    const signal = before.hs.signal;
    before.hs.end();
    before.client.abort(CANCEL);
    expect(signal.aborted).toBe(false);

    const after = setup();
    after.hs.end();
    after.client.abort(CANCEL);
    expect(after.hs.signal.aborted).toBe(false);
  });

  it('a cancellation during the call shows on a signal first read after the call ended', () => {
    const { client, hs } = setup();
    client.abort(CANCEL);
    hs.end();
    expect(hs.signal.aborted).toBe(true);
    expect(hs.signal.reason).toBe(CANCEL);
  });

  it('a timeout after the end changes nothing', () => {
    const { hs } = setup();
    hs.end();
    hs.abort(TIMEOUT);
    expect(hs.signal.aborted).toBe(false);
  });
});
