/**
 * Resuming the event stream of a call the session fast path serves, over raw
 * HTTP, against the SDK path: a Last-Event-ID of a stream that is still being
 * written is refused (409) as the SDK refuses it; once the tool has closed the
 * stream, the same id replays what came after it and the call's answer then
 * arrives live on the resumed stream; ids of other sessions are not replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

const VERSION = '2025-11-25';

/** A promise the test settles when it is ready for the tool's next move. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
/** The moves of the running `slow` call: the test decides when each happens, not the clock. */
const turn = { conflictSeen: gate(), streamClosed: gate(), resumed: gate() };

const headers = (session?: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  ...(session ? { 'mcp-session-id': session } : {}),
  ...extra,
});

async function openSession(url: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'resume', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id') as string;
  await init.text();
  await (await fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return session;
}

/** Reads SSE events (id and data) as they arrive, until `until` says stop. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (events: Array<{ id?: string; data: string }>) => boolean) {
  const events: Array<{ id?: string; data: string }> = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      if (block.every((l) => l.startsWith(':'))) continue;
      const id = block.find((l) => l.startsWith('id: '))?.slice(4);
      events.push({ ...(id ? { id } : {}), data: block.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('') });
    }
  }
  void reader.cancel().catch(() => undefined);
  return events;
}

describe('resuming a session call stream (SSE responses)', () => {
  const servers: Record<'fast' | 'sdk', TestServer | undefined> = { fast: undefined, sdk: undefined };
  beforeAll(async () => {
    for (const label of ['fast', 'sdk'] as const) {
      servers[label] = await startTestServer(
        {
          tools: [
            { name: 'quick', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('quick') },
            {
              name: 'slow',
              description: 'Progress, its stream closed when the test has seen the refusal, progress and the result once it resumed.',
              inputSchema: { type: 'object' },
              handler: async ({ sendProgress, client }) => {
                sendProgress(1, 2, 'first');
                await turn.conflictSeen.opened;
                client.closeStream?.();
                turn.streamClosed.open();
                await turn.resumed.opened;
                sendProgress(2, 2, 'second');
                return formatToolResult('finished');
              },
            },
          ],
        },
        { target: { transport: 'http', era: '2025', label: 'http-session/2025' }, config: { mcp: { responseMode: 'sse', fastPath: label === 'fast', progress: { throttleMs: 0 } } } },
      );
    }
  });
  afterAll(async () => {
    await Promise.all([servers.fast?.stop(), servers.sdk?.stop()]);
  });

  it('refuses a second reader while the stream is written, then resumes it after the tool closed it, as the SDK path does', async () => {
    const outcomes: Record<string, unknown> = {};
    for (const label of ['fast', 'sdk'] as const) {
      const server = servers[label] as TestServer;
      const url = server.handle.url as string;
      Object.assign(turn, { conflictSeen: gate(), streamClosed: gate(), resumed: gate() });
      const session = await openSession(url);
      const before = server.handle.http?.fastLane().sessionCalls ?? 0;
      const call = await fetch(url, {
        method: 'POST',
        headers: headers(session),
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: { progressToken: 'p' } } }),
      });
      // The priming event and the first progress, then the tool closes the stream.
      const first = await readEvents(call.body as ReadableStream<Uint8Array>, (events) => events.length >= 2);
      const lastId = first[first.length - 1]?.id as string;
      expect(first[1]?.data).toContain('"message":"first"');

      // (the stream is still open here on both paths: the tool waits for the test)
      const conflict = await fetch(url, { method: 'GET', headers: headers(session, { 'last-event-id': lastId }) });
      const conflictBody = await conflict.json();
      turn.conflictSeen.open();
      await turn.streamClosed.opened; // the tool has closed the stream now, and still runs
      const resumed = await fetch(url, { method: 'GET', headers: headers(session, { 'last-event-id': lastId }) });
      turn.resumed.open(); // the resumed stream is attached: what comes now arrives live
      const rest = await readEvents(resumed.body as ReadableStream<Uint8Array>, (events) => events.some((e) => e.data.includes('"id":7')));
      // Another session cannot read this one's events.
      const other = await openSession(url);
      const foreign = await fetch(url, { method: 'GET', headers: headers(other, { 'last-event-id': lastId }) });
      await foreign.text();
      outcomes[label] = {
        conflict: [conflict.status, conflictBody],
        resumed: [resumed.status, resumed.headers.get('content-type'), rest.map((e) => JSON.parse(e.data))],
        foreign: foreign.status,
      };
      if (label === 'fast') expect((server.handle.http?.fastLane().sessionCalls ?? 0) - before).toBe(3); // the call, the refusal, the resumption
    }
    expect(outcomes.fast).toEqual(outcomes.sdk);
    const fast = outcomes.fast as { conflict: [number, { error: { code: number } }]; resumed: [number, string, Array<Record<string, unknown>>]; foreign: number };
    expect([fast.conflict[0], fast.conflict[1].error.code]).toEqual([409, -32000]);
    expect(fast.resumed.slice(0, 2)).toEqual([200, 'text/event-stream']);
    expect(fast.foreign).not.toBe(200);
    const resumed = fast.resumed[2];
    expect(resumed.map((m) => (m.params as { message?: string } | undefined)?.message ?? (m.result ? 'result' : '?'))).toEqual(['second', 'result']);
  });

  it('a call answered before its stream began: one event, no priming and nothing stored (the SDK path primes and stores both)', async () => {
    const texts: Record<string, string> = {};
    for (const label of ['fast', 'sdk'] as const) {
      const url = (servers[label] as TestServer).handle.url as string;
      const session = await openSession(url);
      const res = await fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'quick', arguments: {} } }) });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      texts[label] = await res.text();
    }
    expect(texts.fast).toBe('event: message\ndata: {"result":{"content":[{"type":"text","text":"quick"}]},"jsonrpc":"2.0","id":3}\n\n');
    expect(texts.sdk).toMatch(/^id: .+\ndata: \n\nevent: message\nid: .+\ndata: \{"result"/);
  });
});
