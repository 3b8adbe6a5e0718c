/**
 * Security headers (helmet) on every HTTP response: the MCP endpoint in JSON
 * and SSE, refusals, /health; HSTS only when configured; all off when disabled.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureServerData } from '../fixtures/server-data.js';
import { baseUrl, initializeRequest, MCP_ACCEPT, nodeRequest, serverUrl, startTestServer, stopAllServers, type NodeResponse } from '../integration/helpers.js';

afterAll(stopAllServers);

function expectHardened(res: NodeResponse, what: string): void {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['content-security-policy'], what).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(res.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(res.headers['x-powered-by'], what).toBeUndefined();
}

const initialize = (url: URL, extra: Record<string, string> = {}) =>
  nodeRequest(url, {
    method: 'POST',
    headers: { host: url.host, 'content-type': 'application/json', accept: MCP_ACCEPT, ...extra },
    body: JSON.stringify(initializeRequest()),
  });

describe('security headers', () => {
  it('are on MCP answers (JSON and SSE), refusals and /health; no HSTS by default', async () => {
    const json = await startTestServer(fixtureServerData(), { mcp: { responseMode: 'json' } });
    const sse = await startTestServer(fixtureServerData(), { mcp: { responseMode: 'sse' } });

    const jsonAnswer = await initialize(serverUrl(json));
    expect(jsonAnswer.headers['content-type']).toMatch(/application\/json/);
    expectHardened(jsonAnswer, 'json answer');
    expect(jsonAnswer.headers['strict-transport-security']).toBeUndefined();

    const sseAnswer = await initialize(serverUrl(sse));
    expect(sseAnswer.headers['content-type']).toMatch(/text\/event-stream/);
    expectHardened(sseAnswer, 'sse answer');

    const refused = await initialize(serverUrl(json), { host: 'evil.example.com' });
    expect(refused.status).toBe(403);
    expectHardened(refused, 'refusal');

    const unknownSession = await nodeRequest(serverUrl(json), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': 'nope' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(unknownSession.status).toBe(404);
    expectHardened(unknownSession, '404');

    expectHardened(await nodeRequest(new URL('/health', baseUrl(json))), '/health');
  });

  it('adds HSTS when hstsMaxAgeSec is set', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { securityHeaders: { hstsMaxAgeSec: 31_536_000 } } });
    const res = await nodeRequest(new URL('/health', baseUrl(handle)));
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('are left out when disabled', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { securityHeaders: { enabled: false } } });
    const res = await initialize(serverUrl(handle));
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined(); // never advertised, whatever the setting
  });
});
