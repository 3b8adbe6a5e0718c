/**
 * The legacy HTTP+SSE transport on the wire: progress notifications of a call
 * travel on the caller's stream, in order, before the result. (The SDK v2
 * client's SSEClientTransport does not surface progress to `onprogress`, so
 * this reads the stream itself.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { contractConfig, contractServer } from './fixtures.js';

let server: TestServer;
beforeAll(async () => {
  const target = ALL_TARGETS.find((t) => t.transport === 'sse');
  server = await startTestServer(contractServer({ calls: [], aborted: [] }), { ...(target ? { target } : {}), config: contractConfig, cwd: __dirname });
});
afterAll(() => server.stop());

it('delivers monotonic progress before the result on the caller stream', async () => {
  const sseUrl = new URL('/sse', server.handle.url);
  const abort = new AbortController();
  const res = await fetch(sseUrl, { signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (pred: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!pred() && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
  };
  await readUntil(() => text.includes('sessionId='));
  const endpoint = /data: (\S+)/.exec(text)?.[1] as string;
  const post = (m: unknown) => fetch(new URL(endpoint, sseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(m) });
  await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: { progressToken: 'p1' } } });
  await readUntil(() => text.includes('"id":2'));
  abort.abort();
  const messages = text
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)) as { method?: string; id?: number; params?: { progress: number } });
  const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progress);
  expect(progress).toEqual([1, 2, 3, 4, 5]);
  const resultAt = messages.findIndex((m) => m.id === 2);
  const lastProgressAt = messages.map((m) => m.method).lastIndexOf('notifications/progress');
  expect(resultAt).toBeGreaterThan(lastProgressAt);
});
