/**
 * The session fast path with the official SDK client, in both response modes:
 * requests to the client during a call (elicitation twice at once, sampling,
 * roots) reach it and come back; a cancelled call and a call whose session
 * ends are aborted with the SDK path's reasons; a tool that closes its event
 * stream is resumed by Last-Event-ID with what the client missed. Each case
 * runs on a server with the fast path and on one without, and checks that the
 * first really served it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { reasonText, waitsTool } from './parity-tools.js';

const SESSION_TARGET = { transport: 'http', era: '2025', label: 'http-session/2025' } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tools(aborted: string[], started: string[]): McpServerData {
  return {
    tools: [
      {
        name: 'asks',
        description: 'Asks the user twice at once, samples, and lists roots.',
        inputSchema: { type: 'object' },
        handler: async ({ client }) => {
          const [a, b] = await Promise.all([
            client.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }),
            client.elicit({ message: 'Age?', requestedSchema: { type: 'object', properties: { age: { type: 'number' } } } }),
          ]);
          const sampled = await client.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
          const roots = await client.listRoots();
          return formatToolResult({ a, b, sampled, roots });
        },
      },
      waitsTool(
        (reason) => aborted.push(reasonText(reason)),
        (context) => started.push(context.requestId),
      ),
      {
        name: 'interrupted',
        description: 'Reports progress, closes its event stream, reports again and returns.',
        inputSchema: { type: 'object' },
        handler: async ({ sendProgress, client }) => {
          sendProgress(1, 2, 'before');
          await sleep(100);
          if (!client.closeStream) return formatToolResult('no stream to close');
          client.closeStream();
          await sleep(1_500); // past the client's reconnection delay (1 s): it resumes while the call runs
          sendProgress(2, 2, 'while away');
          return formatToolResult('done while the client was away');
        },
      },
    ],
  };
}

const capabilities = { capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } } };
function answering(c: Client) {
  c.setRequestHandler('elicitation/create', async (req) => ({ action: 'accept', content: { asked: String(req.params.message) } }));
  c.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }));
  c.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
}

describe.each(['json', 'sse'] as const)('session fast path with the SDK client (%s responses)', (mode) => {
  const servers: Record<'fast' | 'sdk', TestServer | undefined> = { fast: undefined, sdk: undefined };
  const aborted = { fast: [] as string[], sdk: [] as string[] };
  const started = { fast: [] as string[], sdk: [] as string[] };
  const served = () => servers.fast?.handle.http?.fastLane().sessionCalls ?? 0;

  beforeAll(async () => {
    for (const label of ['fast', 'sdk'] as const) {
      servers[label] = await startTestServer(tools(aborted[label], started[label]), {
        target: SESSION_TARGET,
        config: { mcp: { responseMode: mode, fastPath: label === 'fast', progress: { throttleMs: 0 }, limits: { toolTimeoutMs: 10_000 } } },
      });
    }
  });
  afterAll(async () => {
    await Promise.all([servers.fast?.stop(), servers.sdk?.stop()]);
  });

  it('requests to the client during a call reach it and come back, as on the SDK path', async () => {
    const results = [];
    for (const label of ['fast', 'sdk'] as const) {
      const client = await (servers[label] as TestServer).connect(capabilities, answering);
      const before = served();
      results.push(await client.callTool({ name: 'asks', arguments: {} }));
      if (label === 'fast') expect(served() - before).toBe(1);
      await client.close();
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]?.structuredContent).toEqual({
      a: { action: 'accept', content: { asked: 'Name?' } },
      b: { action: 'accept', content: { asked: 'Age?' } },
      sampled: { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' },
      roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
  });

  it('a call the client cancels is aborted with its reason, as on the SDK path', async () => {
    for (const label of ['fast', 'sdk'] as const) {
      const client = await (servers[label] as TestServer).connect();
      const controller = new AbortController();
      const pending = client.callTool({ name: 'waits', arguments: {} }, { signal: controller.signal }).catch((err: Error) => err);
      await expect.poll(() => started[label].length, { timeout: 10_000 }).toBe(1);
      controller.abort('the user changed their mind');
      // The SDK client rejects the call at once with the abort reason (its code says so, not the server).
      expect(await pending).toMatchObject({ name: 'SdkError', code: 'REQUEST_TIMEOUT', message: 'the user changed their mind' });
      await expect.poll(() => aborted[label].length).toBe(1);
      await client.close();
    }
    expect(aborted.fast).toEqual(aborted.sdk);
    expect(aborted.fast[0]).toContain('the user changed their mind');
    aborted.fast.length = aborted.sdk.length = 0;
  });

  it('a call whose session ends is aborted as the SDK aborts its own, and its exchange ends', async () => {
    for (const label of ['fast', 'sdk'] as const) {
      const server = servers[label] as TestServer;
      const client = await server.connect();
      const pending = client.callTool({ name: 'waits', arguments: {} }).catch((err: Error) => err);
      await expect.poll(() => started[label].length, { timeout: 10_000 }).toBe(2);
      await server.handle.http?.mcp.sessions.closeAll();
      await expect.poll(() => aborted[label].length).toBe(1);
      // With JSON responses the fast path ends the exchange (204); an SDK client whose event stream ended tries to resume it.
      // the client reads the 204 without a body as an answer it cannot use, and the call ends with that error.
      if (label === 'fast' && mode === 'json') expect(await pending).toMatchObject({ name: 'SdkError', code: 'CLIENT_HTTP_UNEXPECTED_CONTENT', message: 'Unexpected content type: null' });
      else void pending;
      await client.close().catch(() => undefined);
    }
    expect(aborted.fast).toEqual(['SdkError: Connection closed']);
    expect(aborted.fast).toEqual(aborted.sdk);
    aborted.fast.length = aborted.sdk.length = 0;
  });

  it('a tool that closes its event stream: the client resumes it by Last-Event-ID and gets what it missed', async () => {
    for (const label of ['fast', 'sdk'] as const) {
      const client = await (servers[label] as TestServer).connect();
      const before = served();
      const progress: string[] = [];
      const result = await client.callTool({ name: 'interrupted', arguments: {} }, { onprogress: (p) => void progress.push(String(p.message)), timeout: 10_000 });
      if (mode === 'json') {
        // JSON responses have no stream to close (and drop progress, as the SDK path does).
        expect(result.content).toEqual([{ type: 'text', text: 'no stream to close' }]);
        expect(progress).toEqual([]);
      } else {
        expect(result.content).toEqual([{ type: 'text', text: 'done while the client was away' }]);
        expect(progress).toEqual(['before', 'while away']);
      }
      // The call, and (SSE) the resumption, went by the session fast path.
      if (label === 'fast') expect(served() - before).toBe(mode === 'sse' ? 2 : 1);
      await client.close();
    }
  });
});
