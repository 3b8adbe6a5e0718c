/**
 * `mcp.sessions.store: postgres` when the store fails as a client initializes:
 * the client is told the session could not be stored (503, -32006, Retry-After),
 * not `-32700 Parse error` with the database's own message; nothing of the
 * session is kept, and once the store answers again a new initialize works.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerData } from '../fixtures/server-data.js';
import { asJsonRpcError, initializeRequest, postMcp, serverUrl, startTestServer, stopAllServers } from '../integration/helpers.js';
import { useTestSchema } from '../tasks/pg-test-db.js';

const schema = useTestSchema('sessions_fail');
afterEach(stopAllServers);

const config = () => ({
  mcp: { notifications: { bus: 'postgres' }, sessions: { store: 'postgres' } },
  db: { postgres: { dbs: { main: { url: schema().url, poolSize: 3 } } } },
});

describe('mcp.sessions.store: postgres, the store failing at initialize', () => {
  it('answers 503 -32006 with Retry-After and keeps nothing; the next initialize after recovery works', async () => {
    const db = schema();
    const handle = await startTestServer(fixtureServerData(), config());
    const url = serverUrl(handle);
    // A real failure of the store: its table is gone for a while.
    await db.pool.query('ALTER TABLE fa_mcp_sessions RENAME TO fa_mcp_sessions_away');
    let refused: Awaited<ReturnType<typeof postMcp>>;
    try {
      refused = await postMcp(url, initializeRequest());
    } finally {
      await db.pool.query('ALTER TABLE fa_mcp_sessions_away RENAME TO fa_mcp_sessions');
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    const { error, id } = asJsonRpcError(refused.json ?? JSON.parse(refused.text));
    expect(error).toEqual({ code: -32006, message: 'The session could not be stored; try again' });
    expect(id).toBe(initializeRequest().id);
    // The database's message stays in the server's log.
    expect(refused.text).not.toMatch(/fa_mcp_sessions|relation|does not exist/);
    expect(handle.http?.mcp.sessions.size).toBe(0);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM fa_mcp_sessions')).rows[0]).toEqual({ n: 0 });

    const opened = await postMcp(url, initializeRequest());
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    expect((await db.pool.query('SELECT id FROM fa_mcp_sessions')).rows).toEqual([{ id: sessionId }]);
    expect(handle.http?.mcp.sessions.size).toBe(1);
  });
});
