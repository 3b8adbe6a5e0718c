/**
 * What the HTTP server does before the protocol layer: DNS-rebinding protection
 * (Host and Origin), X-Request-Id, /health and /ready, the payload cap and JSON
 * parse errors, each answered with a JSON-RPC error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData, SERVER_NAME, SERVER_VERSION } from '../fixtures/server-data.js';
import {
  asJsonRpcError, baseUrl, initializeRequest, LEGACY_PROTOCOL_VERSION, MCP_ACCEPT, nodeRequest, openRawSession, postMcp,
  serverUrl, startTestServer, stopAllServers,
} from './helpers.js';

afterAll(stopAllServers);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const jsonHeaders = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', accept: MCP_ACCEPT, ...extra });

describe('HTTP guards', () => {
  let handle: McpServerHandle;
  let port: string;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { limits: { maxPayloadBytes: 2048 } } });
    port = serverUrl(handle).port;
  });

  describe('DNS-rebinding protection', () => {
    it('refuses a POST /mcp with a forged Host header: 403 with a JSON-RPC error body', async () => {
      const response = await nodeRequest(serverUrl(handle), {
        method: 'POST',
        headers: jsonHeaders({ host: `evil.example.com:${port}` }),
        body: JSON.stringify(initializeRequest()),
      });
      expect(response.status).toBe(403);
      expect(response.headers['content-type']).toContain('application/json');
      const body = asJsonRpcError(JSON.parse(response.text));
      expect(body.id).toBeNull();
      expect(body.error.message).toMatch(/Host/);
      expect(response.headers['mcp-session-id']).toBeUndefined();
      expect(handle.http?.mcp.sessions.size ?? 0).toBe(0);
    });

    it('does not take a look-alike host for loopback', async () => {
      for (const host of ['localhost.evil.com', '127.0.0.1.evil.com', `evil.com:${port}@localhost`]) {
        const response = await nodeRequest(serverUrl(handle), { method: 'POST', headers: jsonHeaders({ host }), body: JSON.stringify(initializeRequest()) });
        expect(response.status, host).toBe(403);
      }
    });

    it('accepts loopback Host headers', async () => {
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        const response = await nodeRequest(serverUrl(handle), { method: 'POST', headers: jsonHeaders({ host }), body: JSON.stringify(initializeRequest()) });
        expect(response.status, host).toBe(200);
        expect(response.headers['mcp-session-id']).toMatch(UUID);
      }
    });

    it('refuses a foreign Origin with 403, accepts a loopback one', async () => {
      const forged = await nodeRequest(serverUrl(handle), {
        method: 'POST',
        headers: jsonHeaders({ host: `127.0.0.1:${port}`, origin: 'http://evil.example.com' }),
        body: JSON.stringify(initializeRequest()),
      });
      expect(forged.status).toBe(403);
      expect(asJsonRpcError(JSON.parse(forged.text)).error.message).toMatch(/Origin/);

      const local = await nodeRequest(serverUrl(handle), {
        method: 'POST',
        headers: jsonHeaders({ host: `127.0.0.1:${port}`, origin: 'http://localhost:5173' }),
        body: JSON.stringify(initializeRequest()),
      });
      expect(local.status).toBe(200);
    });

    it('guards the legacy SSE endpoints too', async () => {
      const sse = await nodeRequest(new URL('/sse', baseUrl(handle)), { headers: { host: 'evil.example.com', accept: 'text/event-stream' } });
      expect(sse.status).toBe(403);
      const messages = await nodeRequest(new URL('/messages?sessionId=x', baseUrl(handle)), {
        method: 'POST',
        headers: jsonHeaders({ host: 'evil.example.com' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(messages.status).toBe(403);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a well-formed id and hands it to the handler as the request id', async () => {
      const sessionId = await openRawSession(serverUrl(handle));
      const response = await postMcp(
        serverUrl(handle),
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION, 'x-request-id': 'req-42.abc:XYZ_1' },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe('req-42.abc:XYZ_1');
      const result = (response.json as Array<{ id?: number; result?: { structuredContent?: { requestId?: string } } }>).find((m) => m.id === 5);
      expect(result?.result?.structuredContent?.requestId).toBe('req-42.abc:XYZ_1');
    });

    it('replaces a malformed id with a minted UUID', async () => {
      for (const bad of ['has spaces in it', '<script>alert(1)</script>', 'x'.repeat(129), 'a\tb']) {
        const response = await nodeRequest(new URL('/health', baseUrl(handle)), { headers: { 'x-request-id': bad } });
        expect(response.status).toBe(200);
        const echoed = response.headers['x-request-id'];
        expect(echoed, bad).toMatch(UUID);
      }
    });

    it('mints one when none is sent, and sets it on refusals too', async () => {
      const health = await nodeRequest(new URL('/health', baseUrl(handle)));
      expect(health.headers['x-request-id']).toMatch(UUID);
      const refused = await nodeRequest(serverUrl(handle), {
        method: 'POST',
        headers: jsonHeaders({ host: 'evil.example.com', 'x-request-id': 'kept-on-403' }),
        body: '{}',
      });
      expect(refused.status).toBe(403);
      expect(refused.headers['x-request-id']).toBe('kept-on-403');
      const unknownSession = await postMcp(serverUrl(handle), { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': 'nope', 'x-request-id': 'kept-on-404' });
      expect(unknownSession.status).toBe(404);
      expect(unknownSession.headers.get('x-request-id')).toBe('kept-on-404');
    });
  });

  describe('/health and /ready', () => {
    it('/health answers 200 with the server name and version', async () => {
      const response = await fetch(new URL('/health', baseUrl(handle)));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', name: SERVER_NAME, version: SERVER_VERSION });
    });

    it('/ready answers 200 when there is no failing check', async () => {
      const response = await fetch(new URL('/ready', baseUrl(handle)));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ready' });
    });

    it('/ready answers 503 naming the failing readiness check', async () => {
      const failing = await startTestServer(
        fixtureServerData({
          readinessChecks: [
            { name: 'cache', check: () => undefined },
            {
              name: 'database',
              check: () => {
                throw new Error('connection refused');
              },
            },
          ],
        }),
      );
      const response = await fetch(new URL('/ready', baseUrl(failing)));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: 'not_ready',
        checks: { cache: { status: 'ok' }, database: { status: 'fail', error: 'connection refused' } },
      });
      // Liveness is unaffected by readiness.
      expect((await fetch(new URL('/health', baseUrl(failing)))).status).toBe(200);
    });
  });

  describe('request bodies', () => {
    const oversized = () =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(4096) } } });

    it('answers an oversized body (declared length) with 413 and JSON-RPC -32005', async () => {
      const response = await postMcp(serverUrl(handle), oversized());
      expect(response.status).toBe(413);
      expect(asJsonRpcError(response.json).error.code).toBe(-32005);
    });

    it('answers an oversized chunked body (no Content-Length) with 413 and JSON-RPC -32005', async () => {
      const response = await nodeRequest(serverUrl(handle), {
        method: 'POST',
        headers: jsonHeaders({ 'transfer-encoding': 'chunked' }),
        body: oversized(),
      });
      expect(response.status).toBe(413);
      expect(asJsonRpcError(JSON.parse(response.text)).error.code).toBe(-32005);
    });

    it('answers an oversized chunked body of another Content-Type with 413 and -32005, with or without a session', async () => {
      const sessionId = await openRawSession(serverUrl(handle));
      const withSession = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
      for (const extra of [{}, withSession]) {
        const response = await nodeRequest(serverUrl(handle), {
          method: 'POST',
          headers: { 'content-type': 'text/plain', accept: MCP_ACCEPT, 'transfer-encoding': 'chunked', ...extra },
          body: oversized(),
        });
        expect(response.status, JSON.stringify(extra)).toBe(413);
        expect(asJsonRpcError(JSON.parse(response.text)).error).toMatchObject({ code: -32005, data: { maxPayloadBytes: 2048 } });
        expect(response.headers.connection).toBe('close');
      }
    });

    it('answers a JSON-RPC message sent as another Content-Type with 415, an initialize too (not as a missing session)', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const response = await nodeRequest(serverUrl(handle), {
          method: 'POST',
          headers: { 'content-type': type, accept: MCP_ACCEPT },
          body: JSON.stringify(initializeRequest()),
        });
        expect(response.status, type).toBe(415);
        expect(asJsonRpcError(JSON.parse(response.text)).error.message).toMatch(/Content-Type must be application\/json/);
        expect(response.headers['mcp-session-id']).toBeUndefined();
      }
    });

    it('accepts a body under the cap', async () => {
      const response = await postMcp(serverUrl(handle), initializeRequest());
      expect(response.status).toBe(200);
    });

    it('answers malformed JSON with 400 and JSON-RPC -32700', async () => {
      const response = await postMcp(serverUrl(handle), '{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(response.status).toBe(400);
      expect(asJsonRpcError(response.json)).toMatchObject({ id: null, error: { code: -32700 } });
    });
  });
});
