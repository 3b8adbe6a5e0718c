/**
 * What a 2025-11-25 session answers for a method of the other revision: a
 * 2025-era server instance no longer holds the SDK's server/discover handler
 * (protocol/server-factory.ts drops it to save a session's memory), so the
 * answer must stay the 2025 method table's: method not found, and the session
 * goes on. Both with the session fast path and on the SDK path alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerHandle } from '../../src/index.js';
import { fixtureServerData } from '../fixtures/server-data.js';
import { asJsonRpcError, LEGACY_PROTOCOL_VERSION, openRawSession, postMcp, serverUrl, startTestServer, stopAllServers } from './helpers.js';

afterAll(stopAllServers);

/** The answer in a JSON body or the first message of an SSE body. */
const answer = (r: { json: unknown }): unknown => (Array.isArray(r.json) ? r.json[0] : r.json);

describe.each([true, false])('a 2025-era session (fastPath %s)', (fastPath) => {
  let handle: McpServerHandle;
  beforeAll(async () => {
    handle = await startTestServer(fixtureServerData(), { mcp: { fastPath } });
  });

  it('answers server/discover with -32601 and keeps serving', async () => {
    const url = serverUrl(handle);
    const sessionId = await openRawSession(url);
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
    const discover = await postMcp(url, { jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} }, headers);
    expect(discover.status).toBe(200);
    const error = asJsonRpcError(answer(discover));
    expect(error.error.code).toBe(-32601);
    expect(error.id).toBe(7);

    const ping = await postMcp(url, { jsonrpc: '2.0', id: 8, method: 'ping' }, headers);
    expect(answer(ping)).toMatchObject({ id: 8, result: {} });
  });
});
