/**
 * Sessions cannot be borrowed: a 2025-era session opened behind authentication
 * belongs to the subject that opened it. Another subject naming its id gets
 * the same 404 as for an unknown id, on POST, GET and DELETE alike (an
 * unauthenticated caller is refused 401 before that), and the session lives
 * on for its owner. Unknown, malformed
 * and closed ids are a clean 404 too. Legacy SSE streams are bound the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import {
  asJsonRpcError, initializeRequest, LEGACY_PROTOCOL_VERSION, nodeRequest, postMcp, serverUrl, startTestServer, stopAllServers,
} from '../integration/helpers.js';

afterAll(stopAllServers);

const ALICE = 'alice-token-0123456789abcdefghijklmnopqrstuvwxyz';
const BOB = 'bob-token-0123456789abcdefghijklmnopqrstuvwxyz012';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function openSession(url: URL, headers: Record<string, string>): Promise<string> {
  const init = await postMcp(url, initializeRequest(), headers);
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const sessionHeaders = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
  const initialized = await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
  if (initialized.status !== 202) throw new Error(`initialized failed: ${initialized.status}`);
  return id;
}

const callEcho = (url: URL, sessionId: string, headers: Record<string, string>, text = 'hi') =>
  postMcp(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, {
    ...headers,
    'mcp-session-id': sessionId,
    'mcp-protocol-version': LEGACY_PROTOCOL_VERSION,
  });

function expectNotFound(res: { status: number; json?: unknown; text: string }, what: string): void {
  expect(res.status, what).toBe(404);
  const body = asJsonRpcError(res.json ?? JSON.parse(res.text));
  expect(body.error.message, what).toBe('Session not found or expired');
}

describe('a session is bound to the subject that opened it', () => {
  let handle: McpServerHandle;
  let url: URL;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), {
      mcp: { responseMode: 'json' },
      webServer: { auth: { enabled: true, permanentServerTokens: [ALICE, BOB] } },
    });
    url = serverUrl(handle);
  });

  it('serves the owner, and answers another subject 404 on POST, GET and DELETE', async () => {
    const session = await openSession(url, bearer(ALICE));
    const own = await callEcho(url, session, bearer(ALICE), 'mine');
    expect(own.status).toBe(200);
    expect((own.json as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({ echoed: 'mine' });

    expectNotFound(await callEcho(url, session, bearer(BOB)), 'POST by another subject');
    const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    expectNotFound(await nodeRequest(url, { headers: { host: url.host, accept: 'text/event-stream', ...bearer(BOB), ...sessionHeaders } }), 'GET stream by another subject');
    expectNotFound(await nodeRequest(url, { method: 'DELETE', headers: { host: url.host, ...bearer(BOB), ...sessionHeaders } }), 'DELETE by another subject');

    // Nothing the intruder did touched the session.
    expect(handle.http?.mcp.sessions.get(session)).toBeDefined();
    expect((await callEcho(url, session, bearer(ALICE), 'still mine')).status).toBe(200);
  });

  it('the owner may close it; afterwards the id is a 404 for everyone', async () => {
    const session = await openSession(url, bearer(BOB));
    const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    const closed = await nodeRequest(url, { method: 'DELETE', headers: { host: url.host, ...bearer(BOB), ...sessionHeaders } });
    expect(closed.status).toBe(200);
    expectNotFound(await callEcho(url, session, bearer(BOB)), 'POST after DELETE');
  });

  it('binds legacy SSE streams the same way: only the subject that opened /sse may post to it', async () => {
    const stream = new AbortController();
    const res = await fetch(new URL('/sse', url), { headers: { accept: 'text/event-stream', ...bearer(ALICE) }, signal: stream.signal });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!/sessionId=([\w-]+)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = new URL(/data: (\S+)/.exec(text)![1]!, url);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const asBob = await postMcp(endpoint, ping, bearer(BOB));
    expect(asBob.status).toBe(404);
    expect(asJsonRpcError(asBob.json).error.message).toBe('Unknown or closed SSE session');
    const asAlice = await postMcp(endpoint, ping, bearer(ALICE));
    expect(asAlice.status).toBe(202);
    stream.abort();
  });

  it('an unauthenticated request naming a session is refused before the session is looked up', async () => {
    const session = await openSession(url, bearer(ALICE));
    const anonymous = await callEcho(url, session, {});
    expect(anonymous.status).toBe(401);
    expect(handle.http?.mcp.sessions.get(session)).toBeDefined();
  });
});

describe('session ids without authentication', () => {
  it('unknown, malformed and oversized ids are a clean 404 with a JSON-RPC error', async () => {
    const handle = await startTestServer(fixtureServerData(), { mcp: { responseMode: 'json' } });
    const url = serverUrl(handle);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '../../etc/passwd', 'x'.repeat(4_000), '__proto__', 'constructor']) {
      expectNotFound(await callEcho(url, id, {}), id.slice(0, 40));
    }
  });

  it('a session opened anonymously is not served to an authenticated caller, and the other way round', async () => {
    // Bind both ways: an anonymous session has no owner, so a caller with a subject does not match it.
    const { SessionManager } = await import('../../src/transport/http/session-manager.js');
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    const sessions = new SessionManager({ maxSessions: 5, idleTimeoutMs: 60_000, logger: quiet as never });
    const session = (id: string, owner?: string) => ({ id, transport: {} as never, lastSeen: 0, inFlight: 0, caller: owner ?? 'ip:127.0.0.1', ...(owner ? { owner } : {}), close: async () => undefined });
    const owned = session('owned', 'alice');
    sessions.add(session('anon'));
    sessions.add(owned);
    // The owner a request claims with is its verified subject (session-routes.ts), or none.
    const asCaller = (subject?: string) => subject;
    expect(sessions.claim('anon', asCaller())?.id).toBe('anon');
    expect(sessions.claim('anon', asCaller('alice'))).toBeUndefined();
    expect(sessions.claim('owned', asCaller('alice'))?.id).toBe('owned');
    expect(sessions.claim('owned', asCaller('bob'))).toBeUndefined();
    expect(sessions.claim('owned', asCaller())).toBeUndefined();
    expect(sessions.claim('missing', asCaller())).toBeUndefined();
    // A refused claim does not refresh the session's idle clock.
    owned.lastSeen = 1;
    sessions.claim('owned', asCaller('bob'));
    expect(owned.lastSeen).toBe(1);
    sessions.claim('owned', asCaller('alice'));
    expect(owned.lastSeen).toBeGreaterThan(1);
    await sessions.closeAll();
  });
});
