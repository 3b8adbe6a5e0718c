/**
 * The free functions of seed 001 (getTools, notifyResourceUpdated,
 * getTaskStore, resetTaskStore) reach the servers this process runs: the one
 * running server by default, the given handle otherwise, every server that
 * declares resources.subscribe for the notifyResourceUpdated broadcast; none
 * once stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatToolResult, getTaskStore, getTools, notifyResourceUpdated, resetTaskStore, type McpServerData } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

const data = (name: string, extra: Partial<McpServerData> = {}): McpServerData => ({
  serverInfo: { name, version: '1.0.0' },
  tools: [{ name: `${name}_tool`, description: 'Answers.', inputSchema: { type: 'object' }, handler: () => formatToolResult('ok') }],
  resources: [{ uri: `${name}://doc`, name: 'doc', content: 'v1' }],
  ...extra,
});

const started: TestServer[] = [];
const start = async (d: McpServerData, mcp: Record<string, unknown> = {}) => {
  const s = await startTestServer(d, { config: { mcp } });
  started.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

describe('free functions over the running servers', () => {
  it('with no server running, each says so', async () => {
    await expect(getTools()).rejects.toThrow(/no server is running/);
    await expect(notifyResourceUpdated('a://b')).rejects.toThrow(/no server is running/);
    expect(() => getTaskStore()).toThrow(/no server is running/);
  });

  it('getTools: the only server\'s tools, excluded ones left out; the given one\'s when several run', async () => {
    const a = await start(data('alpha', { tools: async () => [{ name: 'alpha_dynamic', description: 'd', inputSchema: { type: 'object' }, handler: () => formatToolResult('x') }, { name: 'alpha_hidden', description: 'h', inputSchema: { type: 'object' }, handler: () => formatToolResult('x') }] }), { excludeTools: ['alpha_hidden'] });
    expect((await getTools()).map((t) => t.name)).toEqual(['alpha_dynamic']);
    const b = await start(data('beta'));
    await expect(getTools()).rejects.toThrow(/2 servers run in this process/);
    expect((await getTools(b.handle)).map((t) => t.name)).toEqual(['beta_tool']);
    expect((await getTools(a.handle)).map((t) => t.name)).toEqual(['alpha_dynamic']);
    await b.stop();
    started.splice(started.indexOf(b), 1);
    expect((await getTools()).map((t) => t.name)).toEqual(['alpha_dynamic']);
  });

  it('notifyResourceUpdated: broadcast to every server that declares subscribe, reaching their subscribers', async () => {
    const a = await start(data('alpha', { capabilities: { subscribe: true } }));
    await start(data('beta'));
    const updates: string[] = [];
    const client = await a.connect({}, (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)));
    await client.subscribeResource({ uri: 'alpha://doc' });
    await expect(notifyResourceUpdated('alpha://doc')).resolves.toBe(1);
    await expect.poll(() => updates, { timeout: 5000 }).toEqual(['alpha://doc']);
    // The server that declares no subscribe refuses when named.
    await expect(notifyResourceUpdated('beta://doc', started[1]?.handle)).rejects.toThrow(/does not declare resources\.subscribe/);
  });

  it('getTaskStore / resetTaskStore: the server\'s store, emptied by reset; refused with tasks off', async () => {
    const s = await start(data('gamma'), { tasks: { enabled: true } });
    const store = getTaskStore();
    expect(store).toBe(s.handle.tasks?.store);
    await store.create({ taskId: 't-1', owner: 'o', toolName: 'gamma_tool', arguments: {}, ttlMs: 60_000, pollIntervalMs: 100, leaseOwner: 'test', leaseMs: 60_000 });
    expect(await store.get('t-1')).toBeDefined();
    await resetTaskStore();
    expect(await store.get('t-1')).toBeUndefined();
    const off = await start(data('delta'));
    expect(() => getTaskStore(off.handle)).toThrow(/tasks are off/);
  });
});
