/**
 * The objects made for every call keep one shape whether or not the request
 * has a stream to close (PER_CALL_OBJECTS in protocol/client-channel.ts): the
 * same keys in the same order, `closeStream`/`closeSSE` undefined where there
 * is nothing to close. A function-valued field added after such an object was
 * made led V8 to pretenure the call's objects (2025-era SSE sessions cost a
 * third more CPU in garbage collection); this pins the shapes the fix relies on.
 */
import type { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ClientInputSession } from '../../src/core/client-input.js';
import { createLegacyClientChannel, createModernClientChannel, legacySide } from '../../src/protocol/client-channel.js';

// Nothing is sent in these tests: the side only needs something to hold.
const low = {} as Server;
const noop = (): void => undefined;
const port = { log: async () => undefined, notify: async () => undefined };

describe('per-call objects keep one shape', () => {
  it('the 2025-era side and client channel: same keys with and without a stream to close', () => {
    const withStream = legacySide(low, 1, { onRequestStream: true, logLevel: () => undefined, closeSSE: noop });
    const without = legacySide(low, 2, { onRequestStream: true, logLevel: () => undefined });
    expect(Object.keys(withStream)).toEqual(Object.keys(without));
    expect(without.closeSSE).toBeUndefined();
    const channelWith = createLegacyClientChannel(withStream, {});
    const channelWithout = createLegacyClientChannel(without, {});
    expect(Object.keys(channelWith)).toEqual(Object.keys(channelWithout));
    expect(typeof channelWith.closeStream).toBe('function');
    expect(channelWithout.closeStream).toBeUndefined();
  });

  it('a tool closing its stream reaches the request side', () => {
    let closed = 0;
    const side = legacySide(low, 3, { onRequestStream: true, logLevel: () => undefined, closeSSE: () => void closed++ });
    createLegacyClientChannel(side, {}).closeStream?.();
    expect(closed).toBe(1);
  });

  it('the 2026-07-28 client channel: same keys with and without a stream to close', () => {
    const withStream = createModernClientChannel({ ...port, closeSSE: noop }, {}, new ClientInputSession());
    const without = createModernClientChannel({ ...port, closeSSE: undefined }, {}, new ClientInputSession());
    expect(Object.keys(withStream)).toEqual(Object.keys(without));
    expect(without.closeStream).toBeUndefined();
  });
});
