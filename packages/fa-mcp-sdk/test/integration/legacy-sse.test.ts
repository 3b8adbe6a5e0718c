/**
 * The deprecated HTTP+SSE transport (GET /sse + POST /messages) with the SDK's
 * SSEClientTransport, and at the wire level: each session is bound to its own
 * stream and never sees another session's messages.
 */
import { Client, SSEClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { asJsonRpcError, baseUrl, LEGACY_PROTOCOL_VERSION, parseSseMessages, postMcp, startTestServer, stopAllServers, waitFor } from './helpers.js';

const openClients: Client[] = [];
const openStreams: RawSseStream[] = [];
afterAll(async () => {
  openStreams.splice(0).forEach((s) => s.close());
  await Promise.all(openClients.splice(0).map((c) => c.close().catch(() => undefined)));
  await stopAllServers();
});

async function connectSseClient(handle: McpServerHandle, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL('/sse', baseUrl(handle))));
  openClients.push(client);
  return client;
}

interface RawSseStream {
  /** The POST endpoint announced by the `endpoint` event. */
  endpoint: URL;
  /** JSON-RPC messages received so far. */
  messages: unknown[];
  close(): void;
}

/** Opens GET /sse with fetch and keeps reading it in the background. */
async function openRawSse(handle: McpServerHandle): Promise<RawSseStream> {
  const controller = new AbortController();
  const response = await fetch(new URL('/sse', baseUrl(handle)), { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let endpoint: URL | undefined;
  const stream: RawSseStream = {
    get endpoint() {
      if (!endpoint) throw new Error('no endpoint event yet');
      return endpoint;
    },
    messages: [],
    close: () => controller.abort(),
  };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (event.startsWith('event: endpoint')) {
            const data = event.split('\n').find((l) => l.startsWith('data: '))?.slice(6) ?? '';
            endpoint = new URL(data, baseUrl(handle));
          } else {
            stream.messages.push(...parseSseMessages(event));
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  await waitFor(() => endpoint, 3_000, 'the endpoint event');
  openStreams.push(stream);
  return stream;
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-sse', version: '1' } },
});

describe('legacy HTTP+SSE transport', () => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { progress: { throttleMs: 0 } } });
  });

  it('initializes, lists and calls tools through SSEClientTransport', async () => {
    const client = await connectSseClient(handle, 'sse-a');
    expect(client.getServerVersion()?.name).toBe('integration-fixture');
    expect(client.getNegotiatedProtocolVersion()).toBe(LEGACY_PROTOCOL_VERSION);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'over sse' } });
    expect(result.structuredContent).toEqual({ echoed: 'over sse' });

    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ era: '2025', transport: 'sse' });

    const progress: number[] = [];
    await client.callTool({ name: 'count_with_progress', arguments: { steps: 2 } }, { onprogress: (p) => void progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);

    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Sse' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, Sse!' });
  });

  it('answers 404 with a JSON-RPC error for a POST to /messages with an unknown sessionId', async () => {
    const url = new URL('/messages?sessionId=00000000-0000-4000-8000-000000000000', baseUrl(handle));
    const response = await postMcp(url, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(404);
    expect(asJsonRpcError(response.json)).toMatchObject({ id: null, error: { code: -32600 } });

    const missing = await postMcp(new URL('/messages', baseUrl(handle)), { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(missing.status).toBe(404);
  });

  it('keeps two SDK clients apart: concurrent calls each get their own answers', async () => {
    const [a, b] = await Promise.all([connectSseClient(handle, 'sse-a'), connectSseClient(handle, 'sse-b')]);
    const calls = Array.from({ length: 6 }, (_, i) => {
      const [client, tag] = i % 2 === 0 ? [a, `a${i}`] : [b, `b${i}`];
      return client.callTool({ name: 'whoami', arguments: { tag } }).then((r) => [tag, (r.structuredContent as { tag: string }).tag]);
    });
    for (const [sent, received] of await Promise.all(calls)) expect(received).toBe(sent);
  });

  it('delivers each response only on the stream of the session it was posted to', async () => {
    const one = await openRawSse(handle);
    const two = await openRawSse(handle);
    expect(one.endpoint.searchParams.get('sessionId')).not.toBe(two.endpoint.searchParams.get('sessionId'));

    expect((await postMcp(one.endpoint, initialize(1))).status).toBe(202);
    expect((await postMcp(two.endpoint, initialize(1))).status).toBe(202);
    await waitFor(() => one.messages.length >= 1 && two.messages.length >= 1, 3_000, 'both initialize results');
    await postMcp(one.endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });
    await postMcp(two.endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });

    const call = (id: number, tag: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: { tag } } });
    expect((await postMcp(one.endpoint, call(2, 'for-one'))).status).toBe(202);
    expect((await postMcp(two.endpoint, call(2, 'for-two'))).status).toBe(202);
    const tagOf = (m: unknown) => (m as { result?: { structuredContent?: { tag?: string } } }).result?.structuredContent?.tag;
    await waitFor(() => one.messages.some((m) => tagOf(m)) && two.messages.some((m) => tagOf(m)), 3_000, 'both call results');

    expect(one.messages.map(tagOf).filter(Boolean)).toEqual(['for-one']);
    expect(two.messages.map(tagOf).filter(Boolean)).toEqual(['for-two']);
    expect(one.messages.filter((m) => (m as { id?: number }).id === 2)).toHaveLength(1);
    expect(two.messages.filter((m) => (m as { id?: number }).id === 2)).toHaveLength(1);
  });

  it('forgets a session when its stream closes: its endpoint then answers 404', async () => {
    const stream = await openRawSse(handle);
    const before = handle.http?.sse?.size ?? 0;
    stream.close();
    await waitFor(() => (handle.http?.sse?.size ?? 0) < before, 3_000, 'the stream to be forgotten');
    const response = await postMcp(stream.endpoint, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(404);
  });
});
