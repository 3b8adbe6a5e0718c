/**
 * `webServer.trustProxy` behind a real appending proxy (nginx's
 * `$proxy_add_x_forwarded_for`): the proxy keeps the X-Forwarded-For the
 * client sent and appends the address it saw. The client's own value must not
 * become its address: not for the rate limit, not for the tasks it owns; on
 * the fast lane and on the express chain alike.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { compileTrustProxy } from '../../src/transport/http/trust-proxy.js';

interface Answer {
  status: number;
  body: string;
}

/** The appending proxy in front of `target`: X-Forwarded-For gets the address this proxy's socket saw. */
async function appendingProxy(target: URL): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const seen = req.socket.remoteAddress ?? '';
    const sent = req.headers['x-forwarded-for'];
    const headers = { ...req.headers, 'x-forwarded-for': sent ? `${String(sent)}, ${seen}` : seen, host: target.host };
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A JSON POST from a client at `from` (a loopback address of its own) through the proxy. */
function post(port: number, from: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(text)), ...headers },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** The test's server and proxy, stopped after each test. */
function stopsAfterEach(): { server?: TestServer; proxy?: Server; stop(): Promise<void> } {
  const live: { server?: TestServer; proxy?: Server; stop(): Promise<void> } = {
    async stop() {
      await live.server?.stop();
      delete live.server;
      const proxy = live.proxy;
      delete live.proxy;
      proxy?.closeAllConnections();
      await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    },
  };
  afterEach(() => live.stop());
  return live;
}

const ERA_2026 = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ping_tool' };
const callPing = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'ping_tool', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
});

const data: McpServerData = {
  tools: [{ name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => formatToolResult('pong') }],
};

describe('compileTrustProxy', () => {
  const xff = (rule: ReturnType<typeof compileTrustProxy>, chain: string[]) => {
    // proxy-addr walks from the socket (index 0) leftwards while the hop is trusted.
    let i = 0;
    while (i < chain.length - 1 && rule(chain[i] as string, i)) i++;
    return chain[i];
  };
  // socket peer first, then the X-Forwarded-For values right to left
  const chain = ['10.0.0.2', '10.0.0.1', '198.51.100.7', '203.0.113.9'];
  it('true is one hop, not every hop', () => {
    expect(xff(compileTrustProxy(true), chain)).toBe('10.0.0.1');
    expect(xff(compileTrustProxy(false), chain)).toBe('10.0.0.2');
    expect(xff(compileTrustProxy(0), chain)).toBe('10.0.0.2');
    expect(xff(compileTrustProxy(2), chain)).toBe('198.51.100.7');
  });
  it('a list of proxies trusts hops whose address matches', () => {
    expect(xff(compileTrustProxy(['10.0.0.0/8']), chain)).toBe('198.51.100.7');
    expect(xff(compileTrustProxy('10.0.0.2, loopback'), chain)).toBe('10.0.0.1');
    expect(() => compileTrustProxy(['not-an-ip'])).toThrow(/webServer\.trustProxy/);
  });
});

describe.each([
  { fastPath: true, label: 'fast lane' },
  { fastPath: false, label: 'express chain' },
])('trustProxy behind an appending proxy ($label)', ({ fastPath }) => {
  const live = stopsAfterEach();

  it('a forged first X-Forwarded-For value does not dodge the rate limit (true = one hop)', async () => {
    live.server = await startTestServer(data, {
      target: { transport: 'http', era: '2026', label: 'http/2026' },
      config: { webServer: { trustProxy: true }, mcp: { fastPath, httpErrorStatus: true, responseMode: 'json', rateLimit: { maxRequests: 2, windowMs: 60_000 } } },
    });
    const front = await appendingProxy(new URL(live.server.handle.url as string));
    live.proxy = front.server;
    const a = '127.0.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(front.port, a, callPing(i), { ...ERA_2026, 'x-forwarded-for': `198.51.100.${i}` })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    // Another real client keeps its own budget.
    expect((await post(front.port, '127.0.0.3', callPing(9), ERA_2026)).status).toBe(200);
  });

  it('a hop count and a proxy list read the same address', async () => {
    for (const trustProxy of [1, ['127.0.0.1'], 'loopback']) {
      live.server = await startTestServer(data, {
        target: { transport: 'http', era: '2026', label: 'http/2026' },
        config: { webServer: { trustProxy }, mcp: { fastPath, httpErrorStatus: true, responseMode: 'json', rateLimit: { maxRequests: 1, windowMs: 60_000 } } },
      });
      const front = await appendingProxy(new URL(live.server.handle.url as string));
      live.proxy = front.server;
      expect((await post(front.port, '127.0.0.2', callPing(1), { ...ERA_2026, 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
      // With 'loopback' every loopback hop is trusted: the client's own value is then believed, as express does.
      const second = (await post(front.port, '127.0.0.2', callPing(2), { ...ERA_2026, 'x-forwarded-for': '198.51.100.2' })).status;
      expect(second).toBe(trustProxy === 'loopback' ? 200 : 429);
      await live.stop();
    }
  });
});

describe('trustProxy and task ownership behind an appending proxy', () => {
  const live = stopsAfterEach();

  it("a client naming another client's address in X-Forwarded-For does not list that client's tasks", async () => {
    const tasksData: McpServerData = {
      tools: [{ name: 'job', description: 'A task.', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' }, handler: () => formatToolResult('done') }],
    };
    live.server = await startTestServer(tasksData, {
      target: { transport: 'stateless', era: '2025', label: 'http-stateless/2025' },
      config: { webServer: { trustProxy: true }, mcp: { responseMode: 'json', tasks: { enabled: true } } },
    });
    const front = await appendingProxy(new URL(live.server.handle.url as string));
    live.proxy = front.server;
    const v2025 = { 'mcp-protocol-version': '2025-11-25' };
    const created = await post(front.port, '127.0.0.2', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'job', arguments: {}, task: { ttl: 60_000 } } }, v2025);
    expect(created.status).toBe(200);
    const taskId = (JSON.parse(created.body) as { result: { task: { taskId: string } } }).result.task.taskId;
    const list = async (from: string, forged?: string) => {
      const answer = await post(front.port, from, { jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} }, { ...v2025, ...(forged ? { 'x-forwarded-for': forged } : {}) });
      return (JSON.parse(answer.body) as { result: { tasks: Array<{ taskId: string }> } }).result.tasks.map((t) => t.taskId);
    };
    expect(await list('127.0.0.2')).toEqual([taskId]);
    expect(await list('127.0.0.3', '127.0.0.2')).toEqual([]);
    expect(await list('127.0.0.3')).toEqual([]);
  });
});
