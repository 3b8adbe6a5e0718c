/**
 * `db.ambientScope` on a real server and the test PostgreSQL: by default the free
 * helpers find the server's databases in tool handlers, prompt and resource
 * functions and completion sources on both eras, over HTTP (fast lane and SDK
 * path) and stdio; with `false` no scope is entered (its per-promise cost
 * is gone), the helpers refuse with an error that names the setting, and
 * `handle.db` serves the same queries. The env variable reaches the setting.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { queryMAIN } from '../../src/db/index.js';
import { formatToolResult, type McpServerData, type McpServerHandle } from '../../src/index.js';
import { connectInMemory } from '../../src/testing/index.js';
import { connectHttpClient, ERAS, serverUrl, startTestServer, stopAllServers, type Era } from '../integration/helpers.js';
import { dbConfig, PG_URL } from './pg-env.js';

afterEach(stopAllServers);

/** A server whose tool, prompt, completion source and resource read `SELECT 41 + 1` through the free helper, and a tool that uses `handle.db`. */
function serverData(handleRef: { current?: McpServerHandle }): McpServerData {
  const answer = async (): Promise<number> => ((await queryMAIN<{ n: number }>('SELECT 41 + 1 AS n')).rows[0] as { n: number }).n;
  return {
    serverInfo: { name: 'ambient-scope', version: '1.0.0' },
    tools: [
      { name: 'ambient', description: 'queryMAIN in a handler', inputSchema: { type: 'object' }, handler: async () => formatToolResult({ n: await answer() }) },
      {
        name: 'explicit',
        description: 'handle.db in a handler',
        inputSchema: { type: 'object' },
        handler: async () => formatToolResult({ n: ((await handleRef.current!.db.main.query<{ n: number }>('SELECT 41 + 1 AS n')).rows[0] as { n: number }).n }),
      },
    ],
    prompts: [
      {
        name: 'ambient',
        description: 'queryMAIN in a prompt and in its completion source',
        arguments: [{ name: 'pick', complete: async () => [`n=${await answer()}`] }],
        content: async () => `n=${await answer()}`,
      },
    ],
    resources: [{ uri: 'test://ambient', name: 'ambient', mimeType: 'text/plain', content: async () => `n=${await answer()}` }],
  };
}

/** Where the client reaches the server: HTTP on the fast lane, HTTP on the SDK path (`mcp.fastPath: false`), or stdio. */
const TARGETS = ['http-fast', 'http-sdk', 'stdio'] as const;
type Target = (typeof TARGETS)[number];

const inMemory: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(inMemory.splice(0).map((c) => c.close()));
});

/** A server with the test database (and `db.ambientScope` when given), and a client of `era` on `target`. */
async function connect(target: Target, era: Era, ambientScope?: boolean): Promise<{ client: Client; handle: McpServerHandle }> {
  const ref: { current?: McpServerHandle } = {};
  const db = { postgres: { dbs: { main: dbConfig({ url: PG_URL, poolSize: 2 }) } }, ...(ambientScope === undefined ? {} : { ambientScope }) };
  if (target === 'stdio') {
    const connection = await connectInMemory(serverData(ref), { era, config: { db }, env: {}, nodeEnv: 'test' });
    inMemory.push(connection);
    ref.current = connection.handle;
    return connection;
  }
  ref.current = await startTestServer(serverData(ref), { db, mcp: { fastPath: target === 'http-fast' } });
  const { client } = await connectHttpClient(serverUrl(ref.current), { era });
  return { client, handle: ref.current };
}

const CASES = TARGETS.flatMap((target) => ERAS.map((era) => [target, era] as const));

describe.each(CASES)('db.ambientScope on %s, era %s', (target, era) => {
  it('by default the free helpers work in tool handlers, prompts, resources and completion sources', async () => {
    const { client } = await connect(target, era);
    await expect(client.callTool({ name: 'ambient', arguments: {} })).resolves.toMatchObject({ structuredContent: { n: 42 } });
    const prompt = await client.getPrompt({ name: 'ambient' });
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: 'n=42' });
    const read = await client.readResource({ uri: 'test://ambient' });
    expect(read.contents[0]).toMatchObject({ text: 'n=42' });
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'ambient' }, argument: { name: 'pick', value: '' } });
    expect(completed.completion.values).toEqual(['n=42']);
  });

  it('false enters no scope: the helpers refuse, naming the setting; handle.db answers', async () => {
    const { client, handle } = await connect(target, era, false);
    await expect(client.callTool({ name: 'ambient', arguments: {} })).rejects.toThrow(/No database scope.*db\.ambientScope/);
    await expect(client.getPrompt({ name: 'ambient' })).rejects.toThrow(/No database scope.*db\.ambientScope/);
    await expect(client.readResource({ uri: 'test://ambient' })).rejects.toThrow(/No database scope/);
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'ambient' }, argument: { name: 'pick', value: '' } })).rejects.toThrow(/No database scope/);
    await expect(client.callTool({ name: 'explicit', arguments: {} })).resolves.toMatchObject({ structuredContent: { n: 42 } });
    // handle.db.run(fn) still enters the scope on purpose, for code outside a request.
    await expect(handle.db.run(() => queryMAIN('SELECT 1 AS one'))).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });
});

describe('db.ambientScope in the configuration', () => {
  it('defaults to true and reads DB_AMBIENT_SCOPE', () => {
    expect(loadConfig({ env: {} }).config.db.ambientScope).toBe(true);
    expect(loadConfig({ env: { DB_AMBIENT_SCOPE: 'false' } }).config.db.ambientScope).toBe(false);
    expect(() => loadConfig({ env: { DB_AMBIENT_SCOPE: 'sometimes' } })).toThrow(/ambientScope/);
  });
});
