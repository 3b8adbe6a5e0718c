import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  hostOriginGuard,
  parseHostHeader,
  type HostOriginGuardOptions,
} from '../../src/transport/http/host-origin-guard.js';

interface Answer {
  status: number;
  body: unknown;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function start(overrides: Partial<HostOriginGuardOptions> = {}): Promise<number> {
  const app = express();
  app.use(
    hostOriginGuard({ enabled: true, bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], ...overrides }),
  );
  app.all('/mcp', (_req, res) => {
    res.json({ ok: true });
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** node:http, because fetch does not let a caller forge the Host header. */
function send(port: number, headers: Record<string, string>, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const forbidden = (reason: string): unknown => ({
  jsonrpc: '2.0',
  error: { code: -32000, message: `Forbidden: ${reason}` },
  id: null,
});

describe('hostOriginGuard: Host', () => {
  it('rejects a forged Host with a JSON-RPC 403', async () => {
    const port = await start();
    expect(await send(port, { Host: 'evil.example.com' })).toEqual({ status: 403, body: forbidden('invalid Host header') });
    expect((await send(port, { Host: `evil.example.com:${port}` })).status).toBe(403);
    expect((await send(port, { Host: `localhost.evil.com:${port}` })).status).toBe(403);
    expect((await send(port, { Host: `evil.com@localhost:${port}` })).status).toBe(403);
  });

  it('allows loopback hosts with or without a port', async () => {
    const port = await start();
    for (const host of ['localhost', `localhost:${port}`, 'LOCALHOST', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`]) {
      expect(await send(port, { Host: host }), host).toEqual({ status: 200, body: { ok: true } });
    }
  });

  it('allows an allowedHosts entry without a port on any port, case-insensitively', async () => {
    const port = await start({ allowedHosts: ['mcp.example.com'] });
    expect((await send(port, { Host: 'MCP.example.com' })).status).toBe(200);
    expect((await send(port, { Host: 'mcp.example.com:9999' })).status).toBe(200);
    expect((await send(port, { Host: 'sub.mcp.example.com' })).status).toBe(403);
    expect((await send(port, { Host: 'mcp.example.com.evil.com' })).status).toBe(403);
  });

  it('requires the exact port for an allowedHosts entry with a port', async () => {
    const port = await start({ allowedHosts: ['mcp.example.com:8443'] });
    expect((await send(port, { Host: 'mcp.example.com:8443' })).status).toBe(200);
    expect((await send(port, { Host: 'mcp.example.com:8444' })).status).toBe(403);
    expect((await send(port, { Host: 'mcp.example.com' })).status).toBe(403);
  });

  it('allows a specific bind host, but not a wildcard one', async () => {
    const specific = await start({ bindHost: '10.1.2.3' });
    expect((await send(specific, { Host: '10.1.2.3:8080' })).status).toBe(200);
    const wildcard = await start({ bindHost: '0.0.0.0' });
    expect((await send(wildcard, { Host: '0.0.0.0' })).status).toBe(403);
  });

  it('does nothing when disabled', async () => {
    const port = await start({ enabled: false });
    expect((await send(port, { Host: 'evil.example.com', Origin: 'http://evil.example.com' })).status).toBe(200);
  });

  it('refuses invalid configuration at construction', () => {
    const base = { enabled: true, bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [] };
    expect(() => hostOriginGuard({ ...base, allowedHosts: ['exa mple.com'] })).toThrow(/allowed host/);
    expect(() => hostOriginGuard({ ...base, allowedOrigins: ['not a url'] })).toThrow(/allowed origin/);
  });
});

describe('hostOriginGuard: Origin', () => {
  it('rejects a look-alike loopback origin', async () => {
    const port = await start();
    const answer = await send(port, { Host: `localhost:${port}`, Origin: 'http://localhost.evil.com' });
    expect(answer).toEqual({ status: 403, body: forbidden('invalid Origin header') });
    expect((await send(port, { Host: `localhost:${port}`, Origin: `http://localhost.evil.com:${port}` })).status).toBe(403);
    expect((await send(port, { Host: `localhost:${port}`, Origin: 'null' })).status).toBe(403);
    expect((await send(port, { Host: `localhost:${port}`, Origin: 'http://evil.com' })).status).toBe(403);
  });

  it('allows a loopback origin on any port while Host is loopback', async () => {
    const port = await start();
    for (const origin of [`http://localhost:${port}`, 'http://127.0.0.1:5173', 'https://[::1]']) {
      expect((await send(port, { Host: `localhost:${port}`, Origin: origin })).status, origin).toBe(200);
    }
  });

  it('rejects a loopback origin when Host is not loopback', async () => {
    const port = await start({ allowedHosts: ['mcp.example.com'] });
    expect((await send(port, { Host: 'mcp.example.com', Origin: 'http://localhost:3000' })).status).toBe(403);
  });

  it('allows a configured origin, exactly', async () => {
    const port = await start({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    const ok = (origin: string): Promise<Answer> => send(port, { Host: 'mcp.example.com', Origin: origin });
    expect((await ok('https://app.example.com')).status).toBe(200);
    expect((await ok('https://app.example.com:443')).status).toBe(200);
    expect((await ok('http://app.example.com')).status).toBe(403);
    expect((await ok('https://app.example.com:8443')).status).toBe(403);
    expect((await ok('https://app.example.com.evil.com')).status).toBe(403);
  });

  it('allows a request without Origin', async () => {
    const port = await start();
    expect((await send(port, { Host: `127.0.0.1:${port}` })).status).toBe(200);
  });
});

describe('hostOriginGuard: MCP conformance dns-rebinding-protection', () => {
  // The scenario POSTs `initialize` twice: first with Host evil.example.com and
  // Origin http://evil.example.com (expects 4xx), then with the server URL's own
  // host (e.g. localhost:PORT) and Origin http://localhost:PORT (expects 2xx).
  const headers = (host: string): Record<string, string> => ({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Host: host,
    Origin: `http://${host}`,
  });

  it('answers 4xx to the rebinding request and 2xx to the localhost one', async () => {
    const port = await start({ bindHost: '0.0.0.0' });
    const rebinding = await send(port, headers('evil.example.com'));
    expect(rebinding.status).toBeGreaterThanOrEqual(400);
    expect(rebinding.status).toBeLessThan(500);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await send(port, headers(host))).status, host).toBe(200);
    }
  });
});

describe('parseHostHeader', () => {
  it('splits host and port and canonicalises IPv6', () => {
    expect(parseHostHeader('Example.COM:80')).toEqual({ hostname: 'example.com', port: '80' });
    expect(parseHostHeader('[0:0:0:0:0:0:0:1]:3000')).toEqual({ hostname: '::1', port: '3000' });
    expect(parseHostHeader('localhost')).toEqual({ hostname: 'localhost' });
  });

  it.each([undefined, '', 'a b', 'user@host', 'host/path', 'host:', 'host:abc', '[::1', '::1'])('rejects %s', (v) => {
    expect(parseHostHeader(v)).toBeUndefined();
  });
});
