/**
 * Streamable HTTP at /mcp with the official SDK client: the 2025-11-25 session
 * path (initialize, Mcp-Session-Id, server-to-client requests, subscriptions,
 * session lifecycle) and the 2026-07-28 per-request path for the same calls.
 */
import {
  LOG_LEVEL_META_KEY, ResourceNotFoundError, type Client, type LoggingMessageNotificationParams, type Progress,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData, SERVER_NAME, SERVER_VERSION } from '../fixtures/server-data.js';
import {
  asJsonRpcError, connectHttpClient, ERAS, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, openRawSession, postMcp,
  serverUrl, startTestServer, stopAllServers, waitFor, type Era,
} from './helpers.js';

afterAll(stopAllServers);

const sessionHeaders = (sessionId: string) => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION });
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

/** Per-call `_meta` that asks for log notifications on the 2026 era (it has no logging/setLevel). */
const logMeta = (era: Era) => (era === '2026' ? { _meta: { [LOG_LEVEL_META_KEY]: 'info' } } : {});

describe('Streamable HTTP, both protocol eras, through the SDK client', () => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { progress: { throttleMs: 0 } } });
  });

  describe.each(ERAS)('era %s', (era) => {
    let client: Client;
    const logs: LoggingMessageNotificationParams[] = [];
    beforeAll(async () => {
      ({ client } = await connectHttpClient(serverUrl(handle), {
        era,
        setup: (c) => c.setNotificationHandler('notifications/message', (n) => void logs.push(n.params)),
      }));
    });

    it('negotiates the expected protocol revision and sees the server identity', async () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(era === '2026' ? MODERN_PROTOCOL_VERSION : LEGACY_PROTOCOL_VERSION);
      expect(client.getServerVersion()).toMatchObject({ name: SERVER_NAME, version: SERVER_VERSION });
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {}, completions: {}, logging: {} });
      const who = await client.callTool({ name: 'whoami', arguments: { tag: era } });
      expect(who.structuredContent).toMatchObject({ tag: era, era, transport: 'http' });
    });

    it('lists tools with their schemas and calls one, getting structuredContent mirrored into text', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'whoami', 'count_with_progress', 'sleep']));
      const echo = tools.find((t) => t.name === 'echo');
      expect(echo?.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
      expect(echo?.outputSchema).toMatchObject({ type: 'object', required: ['echoed'] });

      const result = await client.callTool({ name: 'echo', arguments: { text: `hello ${era}` } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ echoed: `hello ${era}` });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ echoed: `hello ${era}` }) }]);
    });

    it('answers invalid tool arguments with an isError result the model reads, an unknown tool with a JSON-RPC error', async () => {
      const bad = await client.callTool({ name: 'echo', arguments: { text: 42 } });
      expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments for tool echo: text must be string' }] });
      expect(bad._meta?.['fa-mcp/validation']).toEqual({ field: 'text', reason: 'must be string' });
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it('lists prompts and renders one', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        { name: 'greet', description: 'Greets someone by name.', arguments: [{ name: 'name', required: true }] },
      ]);
      const rendered = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
      expect(rendered.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    });

    it('lists and reads resources, lists templates and reads a templated URI', async () => {
      const { resources } = await client.listResources();
      expect(resources).toEqual(
        expect.arrayContaining([
          { uri: 'test://static', name: 'static', mimeType: 'text/plain' },
          { uri: 'test://watched', name: 'watched', mimeType: 'text/plain' },
        ]),
      );
      const read = await client.readResource({ uri: 'test://static' });
      expect(read.contents).toEqual([{ uri: 'test://static', mimeType: 'text/plain', text: 'static text' }]);

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([{ uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'text/plain' }]);
      const item = await client.readResource({ uri: 'test://items/42' });
      expect(item.contents).toEqual([{ uri: 'test://items/42', mimeType: 'text/plain', text: 'item 42' }]);

      // The SDK's codec puts resource-not-found on the wire as -32602 with data.uri (2026-07-28 wording,
      // applied to both eras); the client surfaces it as ResourceNotFoundError.
      const missing = client.readResource({ uri: 'test://nope' });
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(missing).rejects.toMatchObject({ data: { uri: 'test://nope' } });
    });

    it('completes a prompt argument and a template variable', async () => {
      const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'al' } });
      expect(prompt.completion).toEqual({ values: ['alice', 'albert'], total: 2, hasMore: false });
      const template = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://items/{id}' },
        argument: { name: 'id', value: '1' },
      });
      expect(template.completion).toEqual({ values: ['1', '10'], total: 2, hasMore: false });
    });

    it('delivers progress notifications during a call', async () => {
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: 'count_with_progress', arguments: { steps: 3 } },
        { onprogress: (p) => void seen.push(p) },
      );
      expect(result.structuredContent).toEqual({ steps: 3 });
      expect(seen).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    });

    it('delivers a log notification sent during a call, filtered by the requested level', async () => {
      if (era === '2025') await client.setLoggingLevel('info');
      logs.length = 0;
      const result = await client.callTool({ name: 'log_during_call', arguments: { message: `log ${era}` }, ...logMeta(era) });
      expect(result.structuredContent).toEqual({ logged: true });
      // The notification travels on the call's own stream, so it is in before the result resolves.
      expect(logs).toEqual([{ level: 'info', logger: 'fixture', data: { message: `log ${era}` } }]);
    });
  });

  describe('2025-11-25 only', () => {
    it('answers ping', async () => {
      const { client } = await connectHttpClient(serverUrl(handle), { era: '2025' });
      await expect(client.ping()).resolves.toEqual({});
    });

    it('runs elicitation and sampling from inside a tool handler, as server-to-client requests', async () => {
      const elicitations: unknown[] = [];
      const samplings: unknown[] = [];
      const { client } = await connectHttpClient(serverUrl(handle), {
        era: '2025',
        capabilities: { elicitation: { form: {} }, sampling: {} },
        setup: (c) => {
          c.setRequestHandler('elicitation/create', async (req) => {
            elicitations.push(req.params);
            return { action: 'accept', content: { name: 'Ada' } };
          });
          c.setRequestHandler('sampling/createMessage', async (req) => {
            samplings.push(req.params);
            return { role: 'assistant', content: { type: 'text', text: 'sampled reply' }, model: 'test-model' };
          });
        },
      });

      const asked = await client.callTool({ name: 'ask_user', arguments: {} });
      expect(asked.structuredContent).toEqual({ answer: { action: 'accept', content: { name: 'Ada' } } });
      expect(elicitations).toEqual([expect.objectContaining({ message: 'What is your name?' })]);

      const sampled = await client.callTool({ name: 'ask_model', arguments: { prompt: 'Say hi' } });
      expect(sampled.structuredContent).toEqual({
        reply: { role: 'assistant', content: { type: 'text', text: 'sampled reply' }, model: 'test-model' },
      });
      expect(samplings).toEqual([
        expect.objectContaining({ maxTokens: 32, messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }] }),
      ]);
    });

    it('sends notifications of a call on that call\'s own SSE response stream', async () => {
      const url = serverUrl(handle);
      const sessionId = await openRawSession(url);
      const response = await postMcp(
        url,
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'log_during_call', arguments: { message: 'on my stream' }, _meta: { progressToken: 'tok' } } },
        sessionHeaders(sessionId),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const messages = response.json as Array<{ method?: string; id?: number; params?: { data?: unknown } }>;
      const logIndex = messages.findIndex((m) => m.method === 'notifications/message' && (m.params?.data as { message?: string })?.message === 'on my stream');
      const resultIndex = messages.findIndex((m) => m.id === 7);
      expect(logIndex).toBeGreaterThanOrEqual(0);
      expect(resultIndex).toBeGreaterThan(logIndex);
    });

    it('delivers resources/updated to a subscribed client, and only to it', async () => {
      const updates: string[] = [];
      const { client } = await connectHttpClient(serverUrl(handle), {
        era: '2025',
        setup: (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)),
      });
      const other: string[] = [];
      await connectHttpClient(serverUrl(handle), {
        era: '2025',
        setup: (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void other.push(n.params.uri)),
      });

      await client.subscribeResource({ uri: 'test://watched' });
      await expect(handle.notifyResourceUpdated('test://unsubscribed')).resolves.toBe(0);
      // The notification goes out on the session's standalone GET stream, which the client opens
      // right after initialize; repeat until that stream is up.
      await waitFor(async () => {
        if (updates.length > 0) return true;
        expect(await handle.notifyResourceUpdated('test://watched')).toBe(1);
        return false;
      }, 3_000, 'notifications/resources/updated');
      expect(new Set(updates)).toEqual(new Set(['test://watched']));
      expect(other).toEqual([]);

      await client.unsubscribeResource({ uri: 'test://watched' });
      await expect(handle.notifyResourceUpdated('test://watched')).resolves.toBe(0);
    });

    it('ends a session on DELETE: later requests with its id answer 404', async () => {
      const { client, transport } = await connectHttpClient(serverUrl(handle), { era: '2025' });
      await client.listTools();
      const sessionId = transport.sessionId;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      await transport.terminateSession();

      const after = await postMcp(serverUrl(handle), ping(2), sessionHeaders(sessionId as string));
      expect(after.status).toBe(404);
      expect(asJsonRpcError(after.json).error.code).toBe(-32600);
    });

    it('answers 404 with a JSON-RPC error for an unknown session id', async () => {
      const response = await postMcp(serverUrl(handle), ping(3), sessionHeaders('00000000-0000-4000-8000-000000000000'));
      expect(response.status).toBe(404);
      expect(asJsonRpcError(response.json)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('refuses a non-initialize request without a session id (400)', async () => {
      const response = await postMcp(serverUrl(handle), { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION });
      expect(response.status).toBe(400);
      expect(asJsonRpcError(response.json).error.code).toBe(-32600);
    });
  });

  describe('2026-07-28 only', () => {
    it('serves the same elicitation in-band: input_required, then the retried call with the answer', async () => {
      const { client } = await connectHttpClient(serverUrl(handle), {
        era: '2026',
        capabilities: { elicitation: { form: {} } },
        setup: (c) => c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } })),
      });
      const asked = await client.callTool({ name: 'ask_user', arguments: {} }, { timeout: 5_000 });
      expect(asked.structuredContent).toEqual({ answer: { action: 'accept', content: { name: 'Ada' } } });
    });

    it('keeps no session: the per-request path answers without Mcp-Session-Id', async () => {
      const { client, transport } = await connectHttpClient(serverUrl(handle), { era: '2026' });
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ era: '2026', sessionId: null });
      expect(transport.sessionId).toBeUndefined();
    });
  });
});

describe('session lifecycle limits', () => {
  it('evicts the oldest idle session when the cap (maxSessions: 2) is reached', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { maxSessions: 2 } } });
    const url = serverUrl(handle);
    const first = await openRawSession(url);
    const second = await openRawSession(url);
    // Touch the second so the first is clearly the least recently used.
    expect((await postMcp(url, ping(1), sessionHeaders(second))).status).toBe(200);

    const third = await openRawSession(url);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(handle.http?.mcp.sessions.size).toBe(2);

    expect((await postMcp(url, ping(2), sessionHeaders(first))).status).toBe(404);
    expect((await postMcp(url, ping(3), sessionHeaders(second))).status).toBe(200);
    expect((await postMcp(url, ping(4), sessionHeaders(third))).status).toBe(200);
  });

  it('refuses a new session with 503 when every session at the cap is busy', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { maxSessions: 1 } } });
    const url = serverUrl(handle);
    const busy = await openRawSession(url);
    const slow = postMcp(url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 600 } } }, sessionHeaders(busy));
    await waitFor(() => handle.http?.mcp.sessions.get(busy)?.inFlight === 1, 2_000, 'the slow call to start');

    const refused = await postMcp(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(refused.status).toBe(503);
    expect(asJsonRpcError(refused.json).error.code).toBe(-32006);
    expect((await slow).status).toBe(200);
  });

  it('closes a session left idle past idleTimeoutMs (background sweep)', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { idleTimeoutMs: 1_000 } } });
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    expect(handle.http?.mcp.sessions.size).toBe(1);
    await waitFor(() => handle.http?.mcp.sessions.size === 0, 4_000, 'the idle sweep');
    const response = await postMcp(url, ping(1), sessionHeaders(sessionId));
    expect(response.status).toBe(404);
  });

  it('closes an idle SDK-client session even though its standalone GET stream is open', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { idleTimeoutMs: 1_000 } } });
    const url = serverUrl(handle);
    const { client, transport } = await connectHttpClient(url, { era: '2025' });
    await client.listTools();
    const sessionId = transport.sessionId as string;
    await waitFor(() => handle.http?.mcp.sessions.size === 0, 4_000, 'the idle sweep');
    expect((await postMcp(url, ping(1), sessionHeaders(sessionId))).status).toBe(404);
  });

  it('evicts an idle SDK-client session (GET stream open) at the cap', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { maxSessions: 1 } } });
    const url = serverUrl(handle);
    const { client, transport } = await connectHttpClient(url, { era: '2025' });
    await client.listTools();
    const first = transport.sessionId as string;
    const second = await openRawSession(url);
    expect(second).not.toBe(first);
    expect((await postMcp(url, ping(1), sessionHeaders(first))).status).toBe(404);
    expect((await postMcp(url, ping(2), sessionHeaders(second))).status).toBe(200);
  });

  it('sweep() closes only sessions idle for longer than the timeout', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { sessions: { idleTimeoutMs: 60_000 } } });
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const sessions = handle.http?.mcp.sessions;
    await sessions?.sweep(Date.now() + 30_000);
    expect((await postMcp(url, ping(1), sessionHeaders(sessionId))).status).toBe(200);
    await sessions?.sweep(Date.now() + 61_000);
    expect((await postMcp(url, ping(2), sessionHeaders(sessionId))).status).toBe(404);
  });
});
