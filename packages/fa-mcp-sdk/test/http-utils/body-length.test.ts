/**
 * The Content-Length a handler sees in `headers` is the byte length of the body
 * as it arrived (after Content-Encoding is undone), whichever path served the
 * call: the fast lane or the express chain, a 2025-era session or a
 * 2026-07-28 request. A body sent pretty-printed is not measured by its
 * re-serialized JSON, and a gzip body by its inflated bytes.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerData } from '../../src/index.js';
import { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, openRawSession, postMcp, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';

afterEach(stopAllServers);

const data: McpServerData = {
  serverInfo: { name: 'body-length', version: '1.0.0' },
  tools: [
    {
      name: 'length',
      description: 'Answers the Content-Length its handler sees.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: async ({ headers }) => ({ content: [{ type: 'text', text: headers?.['content-length'] ?? 'none' }] }),
    },
  ],
};

const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The text of the call's answer (JSON or one SSE event). */
function answerText(text: string): string {
  const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data:') && l.length > 6)?.slice(5) ?? '');
  const msg = JSON.parse(json) as { result?: { content?: Array<{ text?: string }> }; error?: unknown };
  if (!msg.result) throw new Error(`no result: ${json}`);
  return msg.result.content?.[0]?.text ?? '';
}

describe.each([true, false])('Content-Length in a handler\'s headers (mcp.fastPath %s)', (fastPath) => {
  // A text with characters of more than one byte, so bytes and characters differ.
  const args = { text: 'größer — 尺寸' };

  it('2025-era session: the bytes sent, not the re-serialized JSON', async () => {
    const url = serverUrl(await startTestServer(data, { mcp: { fastPath } }));
    const sid = await openRawSession(url);
    const sessionHeaders = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    const pretty = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'length', arguments: args } }, null, 2);
    const compact = JSON.stringify(JSON.parse(pretty));
    for (const body of [pretty, compact]) {
      const res = await postMcp(url, body, sessionHeaders);
      expect(res.status).toBe(200);
      expect(answerText(res.text)).toBe(String(Buffer.byteLength(body)));
    }
  });

  it('2025-era session, gzip body: the inflated bytes', async () => {
    const url = serverUrl(await startTestServer(data, { mcp: { fastPath } }));
    const sid = await openRawSession(url);
    const pretty = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'length', arguments: args } }, null, 4);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-encoding': 'gzip', 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION },
      body: gzipSync(pretty),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    expect(answerText(await res.text())).toBe(String(Buffer.byteLength(pretty)));
  });

  it('2026-07-28: the bytes sent', async () => {
    const url = serverUrl(await startTestServer(data, { mcp: { fastPath } }));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'length', arguments: args, _meta: META_2026 } }, null, 1);
    const res = await postMcp(url, body, { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'length' });
    expect(res.status).toBe(200);
    expect(answerText(res.text)).toBe(String(Buffer.byteLength(body)));
  });
});
