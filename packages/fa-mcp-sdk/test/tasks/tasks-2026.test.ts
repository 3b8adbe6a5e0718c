/**
 * The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on
 * both 2026 transports, through the raw 2026 client of fa-mcp-sdk/testing (the
 * SDK's client refuses `resultType: "task"`): the server
 * decides when a call becomes a task, tasks/get inlines the outcome or the
 * outstanding input requests, tasks/update answers them (partially, with
 * checks), tasks/cancel acks; a client without the extension is refused with
 * -32021 or served synchronously; a call can gather input in request rounds
 * and then become a task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, ToolExecutionError, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type WireClient2026 } from '../../src/testing/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Rec = Record<string, unknown>;

const ran: string[] = [];
const aborted: string[] = [];

/** An empty ack: `resultType: "complete"` and nothing of a task (the SDK adds serverInfo under `_meta`). */
const ACK = { resultType: 'complete' };
const bare = (r: Rec) => {
  const { _meta: _m, ...rest } = r;
  return rest;
};

const sleep = (ms: number, signal: AbortSignal, label: string) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      aborted.push(label);
      reject(signal.reason);
    });
  });

const form = (field: string, type: 'string' | 'boolean') => ({ message: `${field}?`, requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] } });

function server(): McpServerData {
  return {
    tools: [
      { name: 'quick', description: 'Synchronous only.', inputSchema: { type: 'object' }, handler: () => formatToolResult('quick done') },
      {
        name: 'report',
        description: 'Long-running; a task when the client can take one.',
        inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 }, label: { type: 'string' } }, required: ['ms'] },
        execution: { taskSupport: 'optional' },
        handler: async ({ arguments: a, signal }) => {
          ran.push(`report:${String(a.label)}`);
          await sleep(a.ms as number, signal, String(a.label));
          return formatToolResult({ label: a.label, pages: 3 });
        },
      },
      {
        name: 'only_task',
        description: 'Runs only as a task.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'required' },
        handler: () => {
          ran.push('only_task');
          return formatToolResult('task done');
        },
      },
      {
        name: 'tool_error',
        description: 'Reports a tool error.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'required' },
        handler: () => {
          throw new ToolExecutionError('disk full');
        },
      },
      {
        name: 'crash',
        description: 'Breaks with an internal error.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'required' },
        handler: () => {
          throw new Error('password=hunter2 leaked into an exception');
        },
      },
      {
        name: 'two_questions',
        description: 'Asks two things at once.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'optional' },
        handler: async ({ client }) => {
          const [a, b] = await Promise.all([client.elicit(form('name', 'string')), client.elicit(form('confirm', 'boolean'))]);
          const again = await client.elicit(form('name', 'string'));
          return formatToolResult({ a: a.content, b: b.content, again: again.content });
        },
      },
      {
        name: 'gather_then_task',
        description: 'Asks in the request, then continues as a task.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'required', taskStart: 'handler' },
        handler: async ({ client, startTask }) => {
          const reply = await client.elicit(form('name', 'string'), { key: 'user_name' });
          await startTask();
          return formatToolResult(`Hello, ${String((reply.content as Rec | undefined)?.name)}`);
        },
      },
    ],
  };
}

const targets2026 = ALL_TARGETS.filter((t) => t.era === '2026');

describe.each(targets2026)('tasks extension on $label', (target) => {
  let s: TestServer;
  let client: WireClient2026; // declares the extension (and elicitation)
  let plain: WireClient2026; // declares nothing
  beforeAll(async () => {
    s = await startTestServer(server(), { target, config: { mcp: { tasks: { enabled: true, maxTasks: 40, pollIntervalMs: 50 } } } });
    client = s.wire2026({ capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } });
    plain = s.wire2026({ capabilities: {} });
  });
  afterAll(() => s.stop());

  const req = (c: WireClient2026, method: string, params: Rec) => c.request(method, params);
  const call = (name: string, args: Rec = {}, c: WireClient2026 = client) => req(c, 'tools/call', { name, arguments: args });
  const get = (taskId: unknown) => req(client, 'tasks/get', { taskId });
  const codeOf = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return { code: (err as { code?: number }).code, data: (err as { data?: Rec }).data };
    }
    throw new Error('expected an error');
  };
  const until = async (taskId: unknown, done: (t: Rec) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const t = await get(taskId);
      if (done(t)) return t;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`task ${String(taskId)} never reached the expected state`);
  };
  const terminal = (taskId: unknown) => until(taskId, (t) => ['completed', 'failed', 'cancelled'].includes(String(t.status)));

  it('declares the extension under capabilities.extensions, not the 2025 tasks slot', async () => {
    const caps = (await req(client, 'server/discover', {})).capabilities as Rec;
    expect((caps.extensions as Rec)[TASKS]).toEqual({});
    expect(caps.tasks).toBeUndefined();
  });

  it('creates a task for a task-supporting tool: a flat handle, readable at once, then the result inlined', async () => {
    const created = await call('report', { ms: 300, label: 'flat' });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('ttl');
    expect(created).not.toHaveProperty('pollInterval');
    expect(created).not.toHaveProperty('requestState');
    expect(Number.isInteger(created.ttlMs) && Number.isInteger(created.pollIntervalMs)).toBe(true);
    expect(new Date(String(created.createdAt)).toISOString()).toBe(created.createdAt);
    const now = await get(created.taskId);
    expect(now).toMatchObject({ taskId: created.taskId, status: 'working' });
    expect(now).not.toHaveProperty('result');
    const done = await terminal(created.taskId);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ resultType: 'complete', structuredContent: { label: 'flat', pages: 3 } });
    expect(((done.result as Rec)._meta as Rec | undefined)?.['io.modelcontextprotocol/related-task']).toBeUndefined();
  });

  it('answers synchronously where no task is possible: a sync-only tool, or a client without the extension', async () => {
    const sync = await call('quick');
    expect(sync).not.toHaveProperty('taskId');
    expect(sync.resultType).toBe('complete');
    expect(sync.content).toEqual([{ type: 'text', text: 'quick done' }]);
    const fellThrough = await call('report', { ms: 0, label: 'plain' }, plain);
    expect(fellThrough).not.toHaveProperty('taskId');
    expect(fellThrough.structuredContent).toEqual({ label: 'plain', pages: 3 });
  });

  it('refuses a task-only tool to a client without the extension with -32021 naming it, before the handler runs', async () => {
    ran.length = 0;
    const err = await codeOf(call('only_task', {}, plain));
    expect(err.code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    expect(err.data).toMatchObject({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    expect(ran).toEqual([]);
  });

  it('refuses tasks/get, tasks/update and tasks/cancel without the extension (-32021), and the removed 2025 methods (-32601)', async () => {
    const created = await call('report', { ms: 0, label: 'gate' });
    for (const [method, params] of [
      ['tasks/get', { taskId: created.taskId }],
      ['tasks/update', { taskId: created.taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId: created.taskId }],
    ] as const) {
      expect((await codeOf(req(plain, method, params))).code).toBe(MCP_ERROR_CODES.MISSING_CLIENT_CAPABILITY);
    }
    expect((await codeOf(req(client, 'tasks/list', {}))).code).toBe(-32601);
    expect((await codeOf(req(client, 'tasks/result', { taskId: created.taskId }))).code).toBe(-32601);
  });

  it('reports a tool error as completed with isError, and a crash as failed with a sanitized error', async () => {
    const toolError = await terminal((await call('tool_error')).taskId);
    expect(toolError).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'disk full' }] } });
    const crashed = await terminal((await call('crash')).taskId);
    expect(crashed.status).toBe('failed');
    expect(crashed).not.toHaveProperty('result');
    expect(crashed.error).toMatchObject({ code: MCP_ERROR_CODES.INTERNAL_ERROR });
    expect(JSON.stringify(crashed.error)).not.toContain('hunter2');
  });

  it('cancels: an empty ack, the handler aborted, the same ack on a finished task, -32602 for an unknown one', async () => {
    const created = await call('report', { ms: 30_000, label: 'to-cancel' });
    await until(created.taskId, () => ran.includes('report:to-cancel'));
    const ack = await req(client, 'tasks/cancel', { taskId: created.taskId });
    expect(bare(ack)).toEqual(ACK);
    expect((await terminal(created.taskId)).status).toBe('cancelled');
    await until(created.taskId, () => aborted.includes('to-cancel'));
    expect(bare(await req(client, 'tasks/cancel', { taskId: created.taskId }))).toEqual(ACK);
    expect((await codeOf(req(client, 'tasks/cancel', { taskId: 'no-such-task' }))).code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    expect((await codeOf(get('no-such-task'))).code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('answers bad arguments at once with an isError result, with no task created and the handler never run', async () => {
    const before = ran.length;
    const refused = await call('report', { ms: 'soon', label: 'bad' });
    expect(refused).not.toHaveProperty('taskId');
    expect(refused).toMatchObject({ resultType: 'complete', isError: true, _meta: { 'fa-mcp/validation': { field: 'ms', reason: 'must be integer' } } });
    expect(ran.slice(before)).toEqual([]);
  });

  it('asks for input through the task: partial answers, checked answers, keys never reused', async () => {
    const created = await call('two_questions');
    const asking = await until(created.taskId, (t) => t.status === 'input_required' && Object.keys((t.inputRequests as Rec) ?? {}).length === 2);
    const requests = asking.inputRequests as Record<string, { method: string; params: Rec }>;
    const [first, second] = Object.keys(requests) as [string, string];
    expect(requests[first]?.method).toBe('elicitation/create');
    // a malformed or schema-violating answer is refused and changes nothing
    expect((await codeOf(req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [first]: { nope: 1 } } }))).code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    const nameKey = requests[first]?.params.requestedSchema && 'name' in ((requests[first]?.params.requestedSchema as Rec).properties as Rec) ? first : second;
    const confirmKey = nameKey === first ? second : first;
    const bad = await codeOf(req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [nameKey]: { action: 'accept', content: { name: 42 } } } }));
    expect(bad.code).toBe(MCP_ERROR_CODES.INVALID_PARAMS);
    // an unknown key is acked and ignored; a partial answer leaves the other request outstanding
    expect(bare(await req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { 'not-a-key': { action: 'accept' } } }))).toEqual(ACK);
    expect(bare(await req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [nameKey]: { action: 'accept', content: { name: 'Ada' } } } }))).toEqual(ACK);
    const partial = await get(created.taskId);
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as Rec)).toEqual([confirmKey]);
    await req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [confirmKey]: { action: 'accept', content: { confirm: true } } } });
    // the third question gets a fresh key, even though it asks the same thing as the first
    const third = await until(created.taskId, (t) => t.status === 'input_required');
    const thirdKey = Object.keys(third.inputRequests as Rec)[0];
    expect([first, second]).not.toContain(thirdKey);
    // an answer sent again under an old key is ignored
    await req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [nameKey]: { action: 'accept', content: { name: 'stale' } } } });
    expect((await get(created.taskId)).status).toBe('input_required');
    await req(client, 'tasks/update', { taskId: created.taskId, inputResponses: { [thirdKey as string]: { action: 'accept', content: { name: 'Grace' } } } });
    const done = await terminal(created.taskId);
    expect(done.result).toMatchObject({ structuredContent: { a: { name: 'Ada' }, b: { confirm: true }, again: { name: 'Grace' } } });
  });

  it('gathers input in request rounds, then becomes a task on the final round (taskStart: handler)', async () => {
    const round1 = await call('gather_then_task');
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    const key = Object.keys(round1.inputRequests as Rec)[0] as string;
    expect(key).toBe('user_name');
    const round2 = await req(client, 'tools/call', {
      name: 'gather_then_task',
      arguments: {},
      inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } },
      ...(round1.requestState ? { requestState: round1.requestState } : {}),
    });
    expect(round2.resultType).toBe('task');
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const done = await terminal(round2.taskId);
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice' }] });
  });
});

describe('tasks extension limits', () => {
  it('refuses a new task past the retained-task cap with a tool error, not an unbounded store', async () => {
    const s = await startTestServer(server(), { target: targets2026[0], config: { mcp: { tasks: { enabled: true, maxTasks: 2 } } } });
    try {
      const client = s.wire2026({ capabilities: { extensions: { [TASKS]: {} } } });
      const call = () => client.request('tools/call', { name: 'report', arguments: { ms: 5_000, label: 'cap' } });
      expect((await call()).resultType).toBe('task');
      expect((await call()).resultType).toBe('task');
      const refused = await call();
      expect(refused).not.toHaveProperty('taskId');
      expect(refused).toMatchObject({ isError: true });
      expect(JSON.stringify(refused.content)).toContain('at most 2 tasks');
    } finally {
      await s.stop();
    }
  });

  it('does not offer the extension when tasks are off: a task-only tool is -32602, others are synchronous', async () => {
    const s = await startTestServer(server(), { target: targets2026[0] });
    try {
      const client = s.wire2026({ capabilities: { extensions: { [TASKS]: {} } } });
      const caps = (await client.request('server/discover', {})).capabilities as Rec;
      expect((caps.extensions as Rec | undefined)?.[TASKS]).toBeUndefined();
      const sync = await client.request('tools/call', { name: 'report', arguments: { ms: 0, label: 'off' } });
      expect(sync).not.toHaveProperty('taskId');
      await expect(client.request('tools/call', { name: 'only_task', arguments: {} })).rejects.toMatchObject({
        code: MCP_ERROR_CODES.INVALID_PARAMS,
      });
    } finally {
      await s.stop();
    }
  });
});
