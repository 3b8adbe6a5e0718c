/**
 * The HTTP fast lane also takes 2025-era POSTs to /mcp past express, straight
 * to the MCP routes' handler (sessions, initialize, stateless). The answers
 * must be the express chain's: the same raw exchanges go to a server with the
 * lane and to one without, in both response modes and stateless, and status,
 * content type and every JSON-RPC message must match (session ids, which are
 * random, aside).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, ToolExecutionError, type McpServerData } from '../../src/index.js';
import { parseSseMessages } from '../integration/helpers.js';
import { startPair, type Pair } from './parity-kit.js';

const VERSION = '2025-11-25';

const data = (): McpServerData => ({
  tools: [
    { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, handler: ({ arguments: a }) => formatToolResult({ echoed: a.text }) },
    {
      name: 'progress',
      description: 'Reports progress, then fails as a tool.',
      inputSchema: { type: 'object' },
      handler: async ({ sendProgress }) => {
        sendProgress(1, 2, 'half');
        await new Promise((r) => setTimeout(r, 20));
        throw new ToolExecutionError('gave up', { at: 1 });
      },
    },
  ],
});

interface Exchange {
  status: number;
  type: string | null;
  messages: unknown[];
  session: string | null;
}

async function post(url: string, body: unknown, session?: string): Promise<Exchange> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'x-request-id': 'lane-2025',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const type = res.headers.get('content-type');
  const messages = !text ? [] : type?.includes('text/event-stream') ? parseSseMessages(text) : [JSON.parse(text)];
  return { status: res.status, type, messages, session: res.headers.get('mcp-session-id') };
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'lane', version: '1' } } };
const calls = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: {} } },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 5, method: 'no/such/method', params: {} },
];

/** One conversation on a server; session ids are kept out of what is compared. */
async function converse(url: string, stateless: boolean): Promise<Array<Omit<Exchange, 'session'>>> {
  const out: Array<Omit<Exchange, 'session'>> = [];
  let session: string | undefined;
  if (!stateless) {
    const init = await post(url, initialize);
    session = init.session ?? undefined;
    expect(session).toBeTruthy();
    out.push({ status: init.status, type: init.type, messages: init.messages });
    const note = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    out.push({ status: note.status, type: note.type, messages: note.messages });
  }
  for (const body of calls) {
    const { session: _s, ...rest } = await post(url, body, session);
    out.push(rest);
  }
  // A session the server does not know.
  const { session: _s, ...unknown } = await post(url, calls[1], '00000000-0000-4000-8000-000000000000');
  out.push(unknown);
  // Ending the session (and ending it again), or DELETE on a stateless endpoint.
  for (let i = 0; i < 2; i++) {
    const res = await fetch(url, { method: 'DELETE', headers: { 'mcp-protocol-version': VERSION, ...(session ? { 'mcp-session-id': session } : {}) } });
    out.push({ status: res.status, type: res.headers.get('content-type'), messages: [await res.text()] });
  }
  return out;
}

describe.each([
  { mode: 'json', stateless: false },
  { mode: 'sse', stateless: false },
  { mode: 'json', stateless: true },
])('fast lane on 2025-era POSTs ($mode responses, stateless: $stateless)', ({ mode, stateless }) => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.stop();
    pair = undefined;
  });

  it('answers every exchange as the express chain does', async () => {
    const target = stateless ? ({ transport: 'stateless', era: '2025', label: 'http-stateless/2025' } as const) : ({ transport: 'http', era: '2025', label: 'http-session/2025' } as const);
    pair = await startPair(() => data(), { mcp: { responseMode: mode } }, target);
    const fast = await converse(pair.fast.handle.url as string, stateless);
    const sdk = await converse(pair.sdk.handle.url as string, stateless);
    expect(fast).toEqual(sdk);
    expect(fast.find((e) => JSON.stringify(e.messages).includes('"echoed":"hi"'))).toBeDefined();
    // These went past express (every POST of the conversation), not through the 2026 fast call; the
    // session's three tools/call were served by the session fast path.
    const sessionCalls = stateless ? 0 : 3;
    expect(pair.fast.handle.http?.fastLane()).toEqual({ fastCalls: 0, sessionCalls, direct: fast.length - sessionCalls });
    expect(pair.sdk.handle.http?.fastLane()).toEqual({ fastCalls: 0, sessionCalls: 0, direct: 0 });
  });
});
