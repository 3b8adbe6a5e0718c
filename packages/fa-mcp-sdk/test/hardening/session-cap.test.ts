/**
 * Session caps per caller (`mcp.sessions.maxPerCaller`): without
 * authentication a caller is its client address. One caller's flood of
 * `initialize` evicts only its own sessions, past its own cap and at the cap
 * of all sessions; another caller's idle session keeps working. On the session
 * fast path and on the SDK path; legacy SSE streams are capped per caller too.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

const data: McpServerData = {
  tools: [{ name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('pong') }],
};

interface Answer {
  status: number;
  session?: string;
}

/** A JSON POST to /mcp from a client at `from` (a loopback address of its own). */
function post(url: URL, from: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(text)), ...headers },
      },
      (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolve({ status: res.statusCode ?? 0, ...(typeof session === 'string' ? { session } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const V = '2025-11-25';
async function initialize(url: URL, from: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await post(url, from, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } } }, headers);
  expect(answer.status).toBe(200);
  const session = answer.session as string;
  expect((await post(url, from, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': V })).status).toBe(202);
  return session;
}

/** A tools/call on the session (what the session fast path serves): 200 while it lives, 404 once evicted. */
const callOn = async (url: URL, from: string, session: string, headers: Record<string, string> = {}) =>
  (await post(url, from, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping_tool', arguments: {} } }, { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': V })).status;

describe.each([
  { fastPath: true, label: 'session fast path' },
  { fastPath: false, label: 'SDK path' },
])('per-caller session cap ($label)', ({ fastPath }) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const start = async (sessions: Record<string, number>) => {
    server = await startTestServer(data, { config: { mcp: { fastPath, responseMode: 'json', sessions } } });
    return new URL(server.handle.url as string);
  };

  it("a flood past the caller's own cap evicts the flooder's oldest session, not another caller's", async () => {
    const url = await start({ maxSessions: 100, maxPerCaller: 2 });
    const a = await initialize(url, '127.0.0.2');
    const flood = [await initialize(url, '127.0.0.3'), await initialize(url, '127.0.0.3'), await initialize(url, '127.0.0.3')];
    expect(await callOn(url, '127.0.0.2', a)).toBe(200);
    expect(await callOn(url, '127.0.0.3', flood[0] as string)).toBe(404);
    expect(await callOn(url, '127.0.0.3', flood[1] as string)).toBe(200);
    expect(await callOn(url, '127.0.0.3', flood[2] as string)).toBe(200);
  });

  it('at the cap of all sessions the caller holding the most gives way', async () => {
    const url = await start({ maxSessions: 3, maxPerCaller: 3 });
    const a = await initialize(url, '127.0.0.2');
    const flood: string[] = [];
    for (let i = 0; i < 4; i++) flood.push(await initialize(url, '127.0.0.3'));
    expect(await callOn(url, '127.0.0.2', a)).toBe(200);
    expect(await callOn(url, '127.0.0.3', flood[0] as string)).toBe(404);
    expect(await callOn(url, '127.0.0.3', flood[1] as string)).toBe(404);
    expect(await callOn(url, '127.0.0.3', flood[3] as string)).toBe(200);
  });
});

describe('per-subject session cap with authentication', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('two subjects on one address: the flooding subject loses its own oldest session only', async () => {
    const secret = (id: string) => `${id}-secret-0123456789abcdefghijklmnop`;
    server = await startTestServer(data, {
      env: {},
      config: {
        mcp: { responseMode: 'json', sessions: { maxSessions: 100, maxPerCaller: 2 } },
        webServer: { auth: { enabled: true, jwtToken: { mode: 'embedded', issuer: 'http://127.0.0.1' }, oauth: { clients: ['alice', 'bob'].map((id) => ({ clientId: id, clientSecret: secret(id), scopes: [] })) } } },
      },
    });
    const url = new URL(server.handle.url as string);
    const bearer = async (id: string) => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret(id) });
      const res = await fetch(new URL('/oauth/token', url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
      return { authorization: `Bearer ${String(((await res.json()) as { access_token: string }).access_token)}` };
    };
    const alice = await bearer('alice');
    const bob = await bearer('bob');
    const a = await initialize(url, '127.0.0.1', alice);
    const flood = [await initialize(url, '127.0.0.1', bob), await initialize(url, '127.0.0.1', bob), await initialize(url, '127.0.0.1', bob)];
    expect(await callOn(url, '127.0.0.1', a, alice)).toBe(200);
    expect(await callOn(url, '127.0.0.1', flood[0] as string, bob)).toBe(404);
    expect(await callOn(url, '127.0.0.1', flood[2] as string, bob)).toBe(200);
  });
});

describe('per-caller cap of legacy SSE streams', () => {
  let server: TestServer | undefined;
  const open: ClientRequest[] = [];
  afterEach(async () => {
    open.splice(0).forEach((r) => r.destroy());
    await server?.stop();
    server = undefined;
  });

  const stream = (url: URL, from: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/sse', localAddress: from, headers: { accept: 'text/event-stream' } }, (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
      });
      req.on('error', reject);
      open.push(req);
      req.end();
    });

  it("a caller past its cap is refused; another caller's stream still opens", async () => {
    server = await startTestServer(data, { target: { transport: 'sse', era: '2025', label: 'legacy-sse/2025' }, config: { mcp: { legacySse: true, sessions: { maxSessions: 10, maxPerCaller: 2 } } } });
    const url = new URL(server.handle.url as string);
    expect([await stream(url, '127.0.0.3'), await stream(url, '127.0.0.3'), await stream(url, '127.0.0.3')]).toEqual([200, 200, 503]);
    expect(await stream(url, '127.0.0.2')).toBe(200);
  });
});
