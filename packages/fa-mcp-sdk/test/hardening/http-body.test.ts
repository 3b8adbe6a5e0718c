/**
 * What the HTTP body parser refuses before the protocol layer sees a message
 * (found by the fuzz test): bytes that are not UTF-8, values nested deeper
 * than mcp.limits.maxJsonDepth, and an empty batch; each is a 400 with a
 * JSON-RPC error, on the session, stateless and 2026 paths alike.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';
import { ENVELOPE, fuzzServerData, LEGACY, MODERN, postRaw } from './fuzz-harness.js';

afterAll(stopAllServers);

const call = (args: string, era: '2025' | '2026') =>
  `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":${args}${era === '2026' ? `,"_meta":${JSON.stringify(ENVELOPE)}` : ''}}}`;

describe.each([
  { label: 'stateless/2025', stateless: true, era: '2025' as const },
  { label: '2026', stateless: false, era: '2026' as const },
])('HTTP body checks ($label)', ({ stateless, era }) => {
  const headers: Record<string, string> = era === '2026' ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' } : { 'mcp-protocol-version': LEGACY };

  it('refuses invalid UTF-8 (-32700), too deep (-32600) and an empty batch (-32600); accepts the depth limit itself', async () => {
    const handle = await startTestServer(fuzzServerData(), { mcp: { stateless, responseMode: 'json', limits: { maxJsonDepth: 10 } } });
    const url = serverUrl(handle).href;

    const utf8 = await postRaw(url, Buffer.concat([Buffer.from(call('{"text":"a', era)), Buffer.from([0xc3, 0x28]), Buffer.from('"}}}')]), headers);
    expect(utf8.status).toBe(400);
    expect(utf8.messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid UTF-8' } });

    // The message (1), params (2), arguments (3): 7 arrays in text reach 10; 8 exceed it.
    const atLimit = await postRaw(url, Buffer.from(call(`{"text":${'['.repeat(7)}${']'.repeat(7)}}`, era)), headers);
    expect(atLimit.status).toBe(200);
    expect(atLimit.messages[0]).toMatchObject({ id: 5, result: { isError: true, _meta: { 'fa-mcp/validation': { field: 'text' } } } }); // reached the tool's input check
    const tooDeep = await postRaw(url, Buffer.from(call(`{"text":${'['.repeat(8)}${']'.repeat(8)}}`, era)), headers);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.messages[0]).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid request: values nest deeper than 10 levels' } });

    const emptyBatch = await postRaw(url, Buffer.from('[]'), headers);
    expect(emptyBatch.status).toBe(400);
    expect(emptyBatch.messages[0]).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid request: empty batch' } });

    const fine = await postRaw(url, Buffer.from(call('{"text":"é ok"}', era)), headers);
    expect(fine.messages[0]).toMatchObject({ id: 5, result: { structuredContent: { echoed: 'é ok' } } });
  });
});
