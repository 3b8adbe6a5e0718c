/**
 * 2025-era Streamable HTTP with SSE responses: a tool's elicitation goes on the
 * tool call's own SSE stream, so a client that never opens the optional GET
 * stream still gets it (it used to go on the GET stream and was lost when the
 * client had not opened one, and the call timed out).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatToolResult } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

const VERSION = '2025-11-25';
let server: TestServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer(
    {
      tools: [
        {
          name: 'confirm',
          description: 'Asks the user to confirm.',
          inputSchema: { type: 'object' },
          handler: async ({ client }) => formatToolResult(await client.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })),
        },
      ],
    },
    { config: { mcp: { responseMode: 'sse', limits: { toolTimeoutMs: 5_000 } } } },
  );
  url = server.handle.url as string;
});
afterAll(() => server?.stop());

const headers = (sessionId?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
});

/** Reads JSON-RPC messages from an SSE body as they arrive. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

it('sends the elicitation on the call stream of a client that never opened the GET stream', async () => {
  const init = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } }),
  });
  const sessionId = init.headers.get('mcp-session-id') as string;
  expect(sessionId).toBeTruthy();
  await init.text();
  await fetch(url, { method: 'POST', headers: headers(sessionId), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then((r) => r.text());

  const call = await fetch(url, {
    method: 'POST',
    headers: headers(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'confirm', arguments: {} } }),
    signal: AbortSignal.timeout(8_000),
  });
  expect(call.headers.get('content-type')).toContain('text/event-stream');
  const seen: string[] = [];
  for await (const message of sseMessages(call.body as ReadableStream<Uint8Array>)) {
    if (message.method === 'elicitation/create') {
      seen.push('elicitation');
      const answer = await fetch(url, {
        method: 'POST',
        headers: headers(sessionId),
        body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { ok: true } } }),
      });
      expect(answer.status).toBe(202);
      continue;
    }
    if (message.id === 2) {
      seen.push('result');
      expect(message.result).toMatchObject({ structuredContent: { action: 'accept', content: { ok: true } } });
      break;
    }
  }
  expect(seen).toEqual(['elicitation', 'result']);
});
