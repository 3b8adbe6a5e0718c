/**
 * Stateless Streamable HTTP (`mcp.stateless: true`): no sessions, every request
 * stands alone, for either protocol era.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import {
  asJsonRpcError, connectHttpClient, ERAS, LEGACY_PROTOCOL_VERSION, MCP_ACCEPT, postMcp, readRaw, serverUrl,
  startTestServer, stopAllServers,
} from './helpers.js';

afterAll(stopAllServers);

describe('stateless Streamable HTTP', () => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { stateless: true } });
  });

  describe.each(ERAS)('SDK client, era %s', (era) => {
    it('lists and calls tools without a session id', async () => {
      const { client, transport } = await connectHttpClient(serverUrl(handle), { era });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { text: 'stateless' } });
      expect(result.structuredContent).toEqual({ echoed: 'stateless' });
      expect(transport.sessionId).toBeUndefined();

      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ era, transport: 'http', sessionId: null });
    });
  });

  it('answers a raw tools/list and tools/call with no initialize and no Mcp-Session-Id', async () => {
    const url = serverUrl(handle);
    const headers = { 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    const list = await postMcp(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
    expect(list.status).toBe(200);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    const listMessages = [list.json].flat() as Array<{ id?: number; result?: { tools?: Array<{ name: string }> } }>;
    expect(listMessages.find((m) => m.id === 1)?.result?.tools?.map((t) => t.name)).toContain('echo');

    const call = await postMcp(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'raw' } } }, headers);
    expect(call.status).toBe(200);
    const callMessages = [call.json].flat() as Array<{ id?: number; result?: { structuredContent?: unknown } }>;
    expect(callMessages.find((m) => m.id === 2)?.result?.structuredContent).toEqual({ echoed: 'raw' });
  });

  it('creates no sessions', async () => {
    await connectHttpClient(serverUrl(handle), { era: '2025' });
    expect(handle.http?.mcp.sessions.size).toBe(0);
  });

  it('answers GET /mcp (standalone stream) with 405', async () => {
    const response = await readRaw(
      await fetch(serverUrl(handle), {
        headers: { accept: MCP_ACCEPT, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION },
        signal: AbortSignal.timeout(5_000),
      }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(asJsonRpcError(response.json).id).toBeNull();
  });

  it('answers DELETE /mcp with 405: there is no session to end', async () => {
    const response = await readRaw(
      await fetch(serverUrl(handle), { method: 'DELETE', headers: { 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION }, signal: AbortSignal.timeout(5_000) }),
    );
    expect(response.status).toBe(405);
    expect(asJsonRpcError(response.json).jsonrpc).toBe('2.0');
  });
});
