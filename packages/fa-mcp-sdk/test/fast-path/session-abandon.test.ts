/**
 * What the session fast path answers over HTTP when a call it serves gets no
 * answer (page 07): cancelled by the client or ended with its session, a call
 * on JSON responses ends with 204 and no body (the SDK path leaves that request
 * open for good), and on SSE responses its event stream ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { waitsTool } from './parity-tools.js';

const VERSION = '2025-11-25';
const headers = (session?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  ...(session ? { 'mcp-session-id': session } : {}),
});

async function openSession(url: string): Promise<string> {
  const body = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'abandon', version: '1' } } };
  const init = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  const session = init.headers.get('mcp-session-id') as string;
  await init.text();
  await (await fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return session;
}

describe.each(['json', 'sse'] as const)('a session call that gets no answer (%s responses)', (mode) => {
  let server: TestServer;
  let url: string;
  const aborted: string[] = [];
  const started: unknown[] = [];
  beforeAll(async () => {
    server = await startTestServer(
      {
        tools: [waitsTool((reason) => aborted.push(reason instanceof Error ? reason.message : String(reason)), (context) => started.push(context.requestId))],
      },
      { target: { transport: 'http', era: '2025', label: 'http-session/2025' }, config: { mcp: { responseMode: mode } } },
    );
    url = server.handle.url as string;
  });
  afterAll(() => server?.stop());

  const call = (session: string, id: number) =>
    fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'waits', arguments: {} } }), signal: AbortSignal.timeout(5_000) });

  it('cancelled by the client: aborted with its reason, and the exchange ends without an answer', async () => {
    const session = await openSession(url);
    const before = server.handle.http?.fastLane().sessionCalls ?? 0;
    const pending = call(session, 1);
    await expect.poll(() => started.length, { timeout: 10_000 }).toBe(1);
    const cancel = await fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no longer needed' } }) });
    expect(cancel.status).toBe(202);
    const res = await pending;
    const text = await res.text();
    expect(aborted.at(-1)).toBe('no longer needed');
    expect((server.handle.http?.fastLane().sessionCalls ?? 0) - before).toBe(1);
    if (mode === 'json') expect([res.status, text]).toEqual([204, '']);
    else expect([res.status, text.includes('"result"'), text.includes('"error"')]).toEqual([200, false, false]);
  });

  it('ended with its session: aborted as the SDK aborts, and the exchange ends', async () => {
    const session = await openSession(url);
    const pending = call(session, 2);
    await expect.poll(() => started.length, { timeout: 10_000 }).toBe(2);
    const closed = await fetch(url, { method: 'DELETE', headers: headers(session) });
    expect(closed.status).toBe(200);
    const res = await pending;
    const text = await res.text();
    expect(aborted.at(-1)).toBe('Connection closed');
    if (mode === 'json') expect([res.status, text]).toEqual([204, '']);
    else expect([res.status, text.includes('"result"')]).toEqual([200, false]);
  });
});
