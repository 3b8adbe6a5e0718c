/**
 * Cancellation of the methods the fast paths serve besides tools/call (here a
 * completion whose source waits for its signal): on 2026-07-28 a client that
 * goes away aborts the source with the SDK path's reason and gets nothing; on
 * a 2025-era session a notifications/cancelled or the session's end aborts it
 * as the SDK aborts its handlers, and the exchange ends without an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerData } from '../../src/index.js';
import { REVISION, startPair, type Pair } from './parity-kit.js';
import { reasonText } from './parity-tools.js';
import { openSession, post, SESSION_TARGET } from './session-kit.js';

/** A template whose `id` completion waits until aborted, telling `started` and `aborted`. */
function waitingCompletion(started: string[], aborted: string[]): McpServerData {
  return {
    resourceTemplates: [
      {
        uriTemplate: 'doc://items/{id}',
        name: 'item',
        read: () => 'item',
        complete: {
          id: (_value, ctx) =>
            new Promise<string[]>((_, reject) => {
              const signal = ctx.signal as AbortSignal;
              signal.addEventListener('abort', () => {
                aborted.push(reasonText(signal.reason));
                reject(signal.reason);
              });
              started.push(ctx.request?.requestId ?? '');
            }),
        },
      },
    ],
  };
}

const completion = { ref: { type: 'ref/resource', uri: 'doc://items/{id}' }, argument: { name: 'id', value: '' } };
const fastCalls = (pair: Pair) => pair.fast.handle.http?.fastLane().fastCalls ?? 0;
const sessionCalls = (pair: Pair) => pair.fast.handle.http?.fastLane().sessionCalls ?? 0;

describe('a completion cancelled on 2026-07-28 (the client goes away)', () => {
  let pair: Pair;
  const started = { fast: [] as string[], sdk: [] as string[] };
  const aborted = { fast: [] as string[], sdk: [] as string[] };
  beforeAll(async () => {
    pair = await startPair((_seen, label) => waitingCompletion(started[label], aborted[label]));
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('is aborted with the same reason on both paths, and nothing is answered', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const body = { jsonrpc: '2.0', id: 1, method: 'completion/complete', params: { ...completion, _meta: meta } };
    for (const label of ['fast', 'sdk'] as const) {
      const controller = new AbortController();
      const pending = fetch(pair[label].handle.url as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'completion/complete' },
        body: JSON.stringify(body),
        signal: controller.signal,
      }).catch((err: Error) => err.name);
      await expect.poll(() => started[label].length, { timeout: 10_000 }).toBe(1);
      controller.abort();
      expect(await pending).toBe('AbortError');
    }
    await expect.poll(() => aborted.fast.length + aborted.sdk.length, { timeout: 10_000 }).toBe(2);
    expect(aborted.fast).toEqual(aborted.sdk);
    expect(fastCalls(pair)).toBe(1);
  });
});

describe('a completion cancelled on a 2025-era session (JSON responses)', () => {
  let pair: Pair;
  const started = { fast: [] as string[], sdk: [] as string[] };
  const aborted = { fast: [] as string[], sdk: [] as string[] };
  beforeAll(async () => {
    pair = await startPair((_seen, label) => waitingCompletion(started[label], aborted[label]), { mcp: { responseMode: 'json' } }, SESSION_TARGET);
  });
  afterAll(async () => {
    await pair?.stop();
  });

  const ask = (label: 'fast' | 'sdk', session: string, id: number, signal: AbortSignal) =>
    post(pair[label], { jsonrpc: '2.0', id, method: 'completion/complete', params: completion }, { 'mcp-session-id': session }, signal);

  /** Starts a completion on a new session of each server, ends it with `end`, and returns what each path did. */
  async function endEach(id: number, end: (label: 'fast' | 'sdk', session: string) => Promise<Response>) {
    const out: Record<string, { reason: string | undefined; answer: unknown }> = {};
    for (const label of ['fast', 'sdk'] as const) {
      const session = await openSession(pair[label]);
      const controller = new AbortController();
      const pending = ask(label, session, id, controller.signal).then(async (res) => [res.status, await res.text()]).catch((err: Error) => err.name);
      await expect.poll(() => started[label].length, { timeout: 10_000 }).toBe(id);
      expect((await end(label, session)).ok).toBe(true);
      await expect.poll(() => aborted[label].length, { timeout: 10_000 }).toBe(id);
      // The SDK path leaves a JSON request it will not answer open: the client gives up on it here.
      if (label === 'sdk') controller.abort();
      out[label] = { reason: aborted[label].at(-1), answer: await pending };
    }
    return out;
  }

  it('by notifications/cancelled: aborted with the client reason on both paths; the fast path ends the exchange with no body', async () => {
    const before = sessionCalls(pair);
    const seen = await endEach(1, (label, session) =>
      post(pair[label], { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no longer needed' } }, { 'mcp-session-id': session }),
    );
    expect(seen.fast).toEqual({ reason: 'no longer needed', answer: [204, ''] });
    expect(seen.sdk?.reason).toBe('no longer needed');
    expect(sessionCalls(pair) - before).toBe(1);
  });

  it('by the end of its session: aborted as the SDK aborts its handlers', async () => {
    const seen = await endEach(2, (label, session) =>
      fetch(pair[label].handle.url as string, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } }),
    );
    expect(seen.fast).toEqual({ reason: 'SdkError: Connection closed', answer: [204, ''] });
    expect(seen.sdk?.reason).toBe(seen.fast?.reason);
  });
});
