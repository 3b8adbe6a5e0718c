/**
 * The size cap of tasks/update (2026-07-28 tasks extension): the answers
 * (`inputResponses`) serialized as JSON and counted in UTF-8 bytes may take at
 * most `mcp.tasks.maxUpdateBytes` (64 KiB by default). A larger update is
 * refused with -32602 naming the limit and changes nothing: the task still
 * waits for its answer, which a smaller update then gives. On both 2026-07-28
 * transports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type WireClient2026 } from '../../src/testing/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Rec = Record<string, unknown>;

const data: McpServerData = {
  tools: [
    {
      name: 'ask_text',
      description: 'Asks the client for a text and reports its length.',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'required' },
      handler: async ({ client }) => {
        const reply = await client.elicit({ message: 'Text?', requestedSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
        return formatToolResult({ length: String((reply.content as Rec | undefined)?.text ?? '').length });
      },
    },
  ],
};

const answer = (text: string) => ({ action: 'accept', content: { text } });

describe.each(ALL_TARGETS.filter((t) => t.era === '2026'))('tasks/update size cap on $label', (target) => {
  let s: TestServer;
  let small: TestServer;
  let client: WireClient2026;
  beforeAll(async () => {
    s = await startTestServer(data, { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 } } } });
    small = await startTestServer(data, { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50, maxUpdateBytes: 2048 } } } });
    client = s.wire2026({ capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } });
  });
  afterAll(async () => {
    await Promise.all([s?.stop(), small?.stop()]);
  });

  /** A task waiting for its text, with the key of the outstanding request. */
  async function waitingTask(c: WireClient2026): Promise<{ taskId: string; key: string }> {
    const created = await c.request('tools/call', { name: 'ask_text', arguments: {} });
    const taskId = String(created.taskId);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const task = await c.request('tasks/get', { taskId });
      const keys = Object.keys((task.inputRequests as Rec | undefined) ?? {});
      if (task.status === 'input_required' && keys[0]) return { taskId, key: keys[0] };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the task never asked for its text');
  }

  const errorOf = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err as { code?: number; message?: string; data?: Rec };
    }
    throw new Error('expected an error');
  };

  async function finished(c: WireClient2026, taskId: string): Promise<Rec> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const task = await c.request('tasks/get', { taskId });
      if (task.status === 'completed') return task;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the task never completed');
  }

  it('refuses a 70,000-character answer with -32602 naming the 64 KiB limit, leaves the task waiting, and takes a 60,000-character one', async () => {
    const { taskId, key } = await waitingTask(client);
    const refused = await errorOf(client.request('tasks/update', { taskId, inputResponses: { [key]: answer('x'.repeat(70_000)) } }));
    expect(refused.code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    expect(refused.data).toMatchObject({ field: 'inputResponses', limitBytes: 65_536 });
    expect(refused.message).toContain('65536');
    const still = await client.request('tasks/get', { taskId });
    expect(still.status).toBe('input_required');
    expect(Object.keys(still.inputRequests as Rec)).toEqual([key]);
    await client.request('tasks/update', { taskId, inputResponses: { [key]: answer('y'.repeat(60_000)) } });
    expect((await finished(client, taskId)).result).toMatchObject({ structuredContent: { length: 60_000 } });
  });

  it('counts UTF-8 bytes, not characters: 33,000 two-byte characters are over the limit, 30,000 are not', async () => {
    const { taskId, key } = await waitingTask(client);
    const refused = await errorOf(client.request('tasks/update', { taskId, inputResponses: { [key]: answer('é'.repeat(33_000)) } }));
    expect(refused.code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    await client.request('tasks/update', { taskId, inputResponses: { [key]: answer('é'.repeat(30_000)) } });
    expect((await finished(client, taskId)).result).toMatchObject({ structuredContent: { length: 30_000 } });
  });

  it('holds to mcp.tasks.maxUpdateBytes when configured', async () => {
    const c = small.wire2026({ capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } });
    const { taskId, key } = await waitingTask(c);
    const refused = await errorOf(c.request('tasks/update', { taskId, inputResponses: { [key]: answer('z'.repeat(3_000)) } }));
    expect(refused.code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    expect(refused.data).toMatchObject({ limitBytes: 2048 });
    await c.request('tasks/update', { taskId, inputResponses: { [key]: answer('z'.repeat(1_000)) } });
    expect((await finished(c, taskId)).result).toMatchObject({ structuredContent: { length: 1_000 } });
  });
});
