/**
 * CORS: an exact allow-list of origins (scheme, host, port) taken from
 * webServer.allowedOrigins, preflights answered, credentials only where
 * configured, and no look-alike origin admitted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { originAllowList, parseAllowedOrigin } from '../../src/transport/http/origin-allow-list.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { initializeRequest, MCP_ACCEPT, nodeRequest, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';

afterAll(stopAllServers);

const ALLOWED = ['http://localhost', 'http://localhost:5173', 'https://app.example.com'];

describe('origin allow-list', () => {
  const list = originAllowList(ALLOWED);

  it('admits exactly the listed origins', () => {
    expect(list.match('http://localhost')).toBe('http://localhost');
    expect(list.match('http://localhost:80')).toBe('http://localhost'); // the default port is the same origin
    expect(list.match('http://localhost:5173')).toBe('http://localhost:5173');
    expect(list.match('https://app.example.com')).toBe('https://app.example.com');
    expect(list.match('https://app.example.com:443')).toBe('https://app.example.com');
  });

  it('refuses look-alikes: other host, scheme, port, suffix, userinfo, path', () => {
    for (const origin of [
      'http://localhost.evil.com', 'http://evil.com.localhost', 'http://localhost:8080', 'https://localhost', 'http://localhost:51730',
      'https://app.example.com.evil.com', 'https://evil-app.example.com', 'http://app.example.com', 'https://app.example.co',
      'http://localhost@evil.com', 'http://evil.com@localhost', 'http://localhost/', 'http://localhost/path', 'null', '', ' ',
      'localhost', '*', 'http://localhost\nx', 'file:///etc/passwd', 'http://127.0.0.1',
    ]) {
      expect(list.match(origin), origin).toBeUndefined();
    }
    expect(list.match(undefined)).toBeUndefined();
  });

  it('admits nothing when the list is empty', () => {
    expect(originAllowList([]).match('http://localhost')).toBeUndefined();
  });

  it('rejects entries that are not plain origins', () => {
    expect(parseAllowedOrigin(' https://App.Example.com:443 ')).toBe('https://app.example.com');
    for (const bad of ['localhost', '*', 'https://app.example.com/path', 'https://u:p@app.example.com', 'ftp://x.example', 'null', '']) {
      expect(() => parseAllowedOrigin(bad), bad).toThrow(/Invalid allowed origin/);
    }
  });
});

function preflight(url: URL, origin: string, headers: Record<string, string> = {}) {
  return nodeRequest(url, {
    method: 'OPTIONS',
    headers: {
      host: url.host,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version, authorization',
      ...headers,
    },
  });
}

function post(url: URL, origin?: string) {
  return nodeRequest(url, {
    method: 'POST',
    headers: { host: url.host, 'content-type': 'application/json', accept: MCP_ACCEPT, ...(origin ? { origin } : {}) },
    body: JSON.stringify(initializeRequest()),
  });
}

describe('CORS on the HTTP server', () => {
  let url: URL;
  beforeAll(async () => {
    const handle: McpServerHandle = await startTestServer(fixtureServerData(), { webServer: { allowedOrigins: ALLOWED } });
    url = serverUrl(handle);
  });

  it('answers a preflight from a listed origin: 204, that origin, methods, requested headers, max-age, no credentials', async () => {
    const res = await preflight(url, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST,DELETE,OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('content-type, mcp-session-id, mcp-protocol-version, authorization');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    // the answer depends on the requested headers too, and has no body
    expect(res.headers.vary).toMatch(/Access-Control-Request-Headers/);
    expect(res.headers['content-length']).toBe('0');
    expect(res.text).toBe('');
  });

  it('answers a preflight that requests no headers without Access-Control-Allow-Headers', async () => {
    const res = await nodeRequest(url, { method: 'OPTIONS', headers: { host: url.host, origin: 'http://localhost', 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost');
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('refuses a preflight from a look-alike origin with 403 and no CORS headers', async () => {
    for (const origin of ['http://localhost.evil.com', 'http://localhost:8080', 'https://app.example.com.evil.com', 'null']) {
      const res = await preflight(url, origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    }
  });

  it('adds CORS headers to an actual request from a listed origin, exposing the MCP headers', async () => {
    const res = await post(url, 'https://app.example.com');
    // The DNS-rebinding guard admits a listed origin on a loopback Host, and the request is served.
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/Mcp-Session-Id/);
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/Mcp-Protocol-Version/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['mcp-session-id']).toBeDefined();
  });

  it('gives no CORS headers to an unlisted origin, and the Origin guard refuses a foreign one', async () => {
    const loopbackOther = await post(url, 'http://localhost:8080'); // loopback page, loopback host: the guard admits it
    expect(loopbackOther.headers['access-control-allow-origin']).toBeUndefined();
    const foreign = await post(url, 'http://localhost.evil.com');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a plain OPTIONS (no Origin) with 204 and Allow', async () => {
    const res = await nodeRequest(url, { method: 'OPTIONS', headers: { host: url.host } });
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, POST, DELETE, OPTIONS');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS credentials and switches', () => {
  it('sends Access-Control-Allow-Credentials only when configured', async () => {
    const handle = await startTestServer(fixtureServerData(), {
      webServer: { allowedOrigins: ['http://localhost:5173'], cors: { credentials: true, maxAgeSec: 0 } },
    });
    const url = serverUrl(handle);
    const pre = await preflight(url, 'http://localhost:5173');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:5173'); // never `*` with credentials
    expect(pre.headers['access-control-max-age']).toBe('0');
    const actual = await post(url, 'http://localhost:5173');
    expect(actual.headers['access-control-allow-credentials']).toBe('true');
    const other = await preflight(url, 'http://localhost:5174');
    expect(other.status).toBe(403);
    expect(other.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('cors.enabled: false sends no CORS headers even to a listed origin', async () => {
    const handle = await startTestServer(fixtureServerData(), { webServer: { allowedOrigins: ['http://localhost:5173'], cors: { enabled: false } } });
    const url = serverUrl(handle);
    expect((await preflight(url, 'http://localhost:5173')).status).toBe(403);
    const actual = await post(url, 'http://localhost:5173');
    expect(actual.status).toBe(200); // still admitted by the Origin guard
    expect(actual.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an allowed origin that is not a plain origin stops the start', async () => {
    await expect(startTestServer(fixtureServerData(), { webServer: { allowedOrigins: ['https://app.example.com/app'] } })).rejects.toThrow(
      /Invalid allowed origin/,
    );
  });
});
