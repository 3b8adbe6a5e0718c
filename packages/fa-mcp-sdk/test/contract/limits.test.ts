/**
 * Rate limits and concurrency caps: enforced before the handler on every
 * transport and era, with honest accounting of in-flight slots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, ToolExecutionError, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';

function limitedServer(calls: string[]): McpServerData {
  return {
    tools: [
      { name: 'ping_tool', description: 'Answers at once.', inputSchema: { type: 'object' }, handler: () => (calls.push('ping_tool'), formatToolResult('pong')) },
      { name: 'scarce', description: 'Has its own budget.', inputSchema: { type: 'object' }, handler: () => (calls.push('scarce'), formatToolResult('ok')) },
      {
        name: 'slow',
        description: 'Ends in the requested way after a delay.',
        inputSchema: { type: 'object', properties: { end: { enum: ['ok', 'fail', 'timeout'] }, ms: { type: 'integer' } } },
        timeoutMs: 1000,
        handler: async ({ arguments: a, signal }) => {
          calls.push('slow');
          await new Promise<void>((resolve, reject) => {
            const t = setTimeout(resolve, (a.ms as number | undefined) ?? 150);
            signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
          });
          if (a.end === 'fail') throw new ToolExecutionError('failed on purpose');
          if (a.end === 'timeout') await new Promise((r) => setTimeout(r, 5000));
          return formatToolResult('done');
        },
      },
    ],
  };
}

describe.each(ALL_TARGETS)('limits on $label', (target) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('refuses calls over the window budget with -32003 and retryAfter; the handler never runs', async () => {
    const calls: string[] = [];
    server = await startTestServer(limitedServer(calls), {
      target,
      config: { mcp: { rateLimit: { maxRequests: 3, windowMs: 60_000, perTool: { scarce: { maxRequests: 1 } } } } },
    });
    const client = await server.connect();
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'ping_tool', arguments: {} });
    const err = await expectToolError(client.callTool({ name: 'ping_tool', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED);
    expect((err.data as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
    expect(calls).toEqual(['ping_tool', 'ping_tool', 'ping_tool']);
  });

  it('applies per-tool budgets on top of the general one', async () => {
    const calls: string[] = [];
    server = await startTestServer(limitedServer(calls), { target, config: { mcp: { rateLimit: { perTool: { scarce: { maxRequests: 1 } } } } } });
    const client = await server.connect();
    await client.callTool({ name: 'scarce', arguments: {} });
    await expectToolError(client.callTool({ name: 'scarce', arguments: {} }), MCP_ERROR_CODES.RATE_LIMITED);
    await client.callTool({ name: 'ping_tool', arguments: {} });
    expect(calls).toEqual(['scarce', 'ping_tool']);
  });

  it('caps calls in flight per caller and releases the slot on success, failure and timeout', async () => {
    const calls: string[] = [];
    server = await startTestServer(limitedServer(calls), { target, config: { mcp: { rateLimit: { maxConcurrentPerSubject: 1 } } } });
    const client = await server.connect();
    for (const end of ['ok', 'fail', 'timeout'] as const) {
      const started = calls.length;
      const first = client.callTool({ name: 'slow', arguments: { end, ms: end === 'timeout' ? 100 : 600 } }).then(
        (r) => r,
        (e: unknown) => e,
      );
      // wait until the first call is inside its handler (it holds the slot)
      for (let i = 0; i < 200 && calls.length === started; i++) await new Promise((r) => setTimeout(r, 10));
      await expectToolError(client.callTool({ name: 'slow', arguments: { ms: 1 } }), MCP_ERROR_CODES.RATE_LIMITED);
      await first;
      // the slot is free again
      const after = await client.callTool({ name: 'slow', arguments: { ms: 1 } });
      expect(after.content).toEqual([{ type: 'text', text: 'done' }]);
    }
    expect(calls.filter((c) => c === 'slow')).toHaveLength(6);
  });
});

describe('rate limits on the HTTP wire', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const call = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping_tool', arguments: {} } }),
    });

  it('sends Retry-After, and HTTP 429 when httpErrorStatus is on', async () => {
    const target = ALL_TARGETS.find((t) => t.transport === 'stateless');
    server = await startTestServer(limitedServer([]), {
      ...(target ? { target } : {}),
      config: { mcp: { responseMode: 'json', httpErrorStatus: true, rateLimit: { maxRequests: 1 } } },
    });
    const url = server.handle.url as string;
    expect((await call(url)).status).toBe(200);
    const refused = await call(url);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { error: { code: number } };
    expect(body.error.code).toBe(MCP_ERROR_CODES.RATE_LIMITED);
  });

  it('counts X-Forwarded-For addresses separately only when trustProxy is on', async () => {
    const target = ALL_TARGETS.find((t) => t.transport === 'stateless');
    for (const trustProxy of [true, false]) {
      server = await startTestServer(limitedServer([]), {
        ...(target ? { target } : {}),
        config: { webServer: { trustProxy }, mcp: { responseMode: 'json', httpErrorStatus: true, rateLimit: { maxRequests: 1 } } },
      });
      const url = server.handle.url as string;
      expect((await call(url, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
      const second = await call(url, { 'x-forwarded-for': '203.0.113.2' });
      expect(second.status).toBe(trustProxy ? 200 : 429);
      await server.stop();
      server = undefined;
    }
  });
});
