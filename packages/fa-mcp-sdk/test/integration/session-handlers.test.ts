/**
 * A 2025-era connection registers the core's handler of a method with the SDK on
 * the first request of that method (protocol/core-methods.ts), so an idle session
 * holds none of the SDK's per-handler closures. What a client relies on stays:
 * every method answers on its first request and on later ones, on a session (with
 * and without the session fast path) and on stdio; a method the server does not
 * serve is still "method not found"; logging/setLevel is the core's (the level
 * the session fast path reads), not the SDK's own.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import type { McpServerHandle } from '../../src/index.js';
import { onFirstRequest, type CoreMethod } from '../../src/protocol/core-methods.js';
import { connectInMemory, type InMemoryConnection } from '../../src/testing/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { asJsonRpcError, LEGACY_PROTOCOL_VERSION, openRawSession, postMcp, serverUrl, startTestServer, stopAllServers } from './helpers.js';

afterAll(stopAllServers);

/** The answer in a JSON body or the first message of an SSE body. */
const answer = (r: { json: unknown }): Record<string, unknown> => (Array.isArray(r.json) ? r.json[0] : r.json) as Record<string, unknown>;

/** Every method the core serves, with params the fixture answers (protocol/core-methods.ts lists them). */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['tools/list', {}],
  ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
  ['prompts/list', {}],
  ['prompts/get', { name: 'greet', arguments: { name: 'Ada' } }],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'test://static' }],
  ['resources/subscribe', { uri: 'test://watched' }],
  ['resources/unsubscribe', { uri: 'test://watched' }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'al' } }],
  ['logging/setLevel', { level: 'warning' }],
];

/** What the fixture answers each method with, in part. */
function expectAnswer(method: string, result: Record<string, unknown>): void {
  if (method === 'tools/list') expect((result.tools as unknown[]).length).toBeGreaterThan(0);
  else if (method === 'tools/call') expect(result.structuredContent).toEqual({ echoed: 'hi' });
  else if (method === 'prompts/get') expect(JSON.stringify(result.messages)).toContain('Hello, Ada!');
  else if (method === 'resources/read') expect(result.contents).toMatchObject([{ uri: 'test://static', text: 'static text' }]);
  else if (method === 'completion/complete') expect(result.completion).toMatchObject({ values: ['alice', 'albert'] });
  else if (method === 'resources/templates/list') expect(result.resourceTemplates).toMatchObject([{ uriTemplate: 'test://items/{id}' }]);
}

/** The methods the SDK server instance of a session has handlers for (its private table: what the session holds). */
function registeredMethods(handle: McpServerHandle, sessionId: string): string[] {
  const server = handle.http?.mcp.sessions.peek(sessionId)?.fast?.link.server;
  if (!server) throw new Error(`no session ${sessionId} with the fast path`);
  return [...(server.server as unknown as { _requestHandlers: Map<string, unknown> })._requestHandlers.keys()].sort();
}

describe.each([true, false])('a 2025-era session (fastPath %s)', (fastPath) => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { fastPath } });
  });

  it('answers every method on its first request and on the next ones', async () => {
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    let id = 10;
    for (const round of [1, 2]) {
      for (const [method, params] of CALLS) {
        const r = await postMcp(url, { jsonrpc: '2.0', id: ++id, method, params }, headers);
        const message = answer(r);
        expect(message, `${method}, request ${round}`).toMatchObject({ id, result: expect.any(Object) });
        expectAnswer(method, message.result as Record<string, unknown>);
      }
    }
    // A method it does not serve stays unknown, every time.
    for (const n of [1, 2]) {
      const r = await postMcp(url, { jsonrpc: '2.0', id: 100 + n, method: 'tasks/list', params: {} }, headers);
      expect(asJsonRpcError(answer(r)).error.code).toBe(-32601);
    }
  });
});

describe('what an idle session holds', () => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { fastPath: true } });
  });

  it('holds only the SDK handlers of initialize and ping until a method is requested', async () => {
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    expect(registeredMethods(handle, sessionId)).toEqual(['initialize', 'ping']);
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    await postMcp(url, { jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} }, headers);
    expect(registeredMethods(handle, sessionId)).toEqual(['initialize', 'ping', 'prompts/list']);
  });

  it('holds nothing of its session handle but the connection\'s own entry until a handler uses it', async () => {
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const live = handle.http?.mcp.sessions.peek(sessionId)?.fast?.link.session as unknown as Record<string, unknown> | undefined;
    expect(live?.id).toBe(sessionId);
    // Made on first use: its resources and their view, the handle through the store (`made`), its subscriptions.
    expect([live?.made, live?.subscribed]).toEqual([undefined, undefined]);
    expect((handle.http?.mcp.sessions.peek(sessionId)?.fast?.link.session as unknown as { room: { watchers?: unknown } }).room.watchers).toBeUndefined();
  });

  it('sets the level the core keeps (read by the session fast path), with the core handler', async () => {
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const link = handle.http?.mcp.sessions.peek(sessionId)?.fast?.link;
    expect(link?.logLevel()).toBeUndefined();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    const r = await postMcp(url, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } }, headers);
    expect(answer(r)).toMatchObject({ id: 2, result: {} });
    expect(link?.logLevel()).toBe('error');
  });
});

describe('a 2025-era stdio connection', () => {
  let conn: InMemoryConnection;
  let client: Client;
  beforeAll(async () => {
    conn = await connectInMemory(fixtureServerData());
    client = conn.client;
  });
  afterAll(async () => conn?.close());

  it('answers every method on its first request and on the next ones', async () => {
    for (const round of [1, 2]) {
      for (const [method, params] of CALLS) {
        const result = (await client.request({ method, params } as never)) as Record<string, unknown>;
        expect(result, `${method}, request ${round}`).toBeTypeOf('object');
        expectAnswer(method, result);
      }
    }
  });
});

describe('onFirstRequest', () => {
  const coreWith = (methods: string[]) => ({ extensions: [{ id: 'x', settings: {}, methods: Object.fromEntries(methods.map((m) => [m, { params: {}, handle: () => ({}) }])) }] }) as unknown as Core;

  it('installs a core method once, and nothing for other methods', () => {
    const installed: CoreMethod[] = [];
    const before = onFirstRequest(coreWith([]), (m) => installed.push(m));
    for (const m of ['tools/list', 'tools/call', 'tools/list', 'ping', 'skills/list', 'tools/call']) before(m);
    expect(installed).toEqual(['tools/list', 'tools/call']);
  });

  it('leaves a method an extension registered to the extension, except completion/complete (the core registered that one after the extensions)', () => {
    const installed: CoreMethod[] = [];
    const before = onFirstRequest(coreWith(['tools/list', 'completion/complete']), (m) => installed.push(m));
    for (const m of ['tools/list', 'completion/complete', 'tools/call']) before(m);
    expect(installed).toEqual(['completion/complete', 'tools/call']);
  });
});
