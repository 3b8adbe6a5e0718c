/**
 * 2025-era tasks on every 2025 transport: task-augmented tools/call answers at
 * once, tasks/get|result|list|cancel, status notifications, ownership, caps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, expectToolError, startTestServer, type TestServer } from '../../src/testing/index.js';
import { onTaskStatus } from '../integration/helpers.js';

const Task = z.object({ taskId: z.string(), status: z.string(), statusMessage: z.string().optional(), ttl: z.number().nullable(), createdAt: z.string(), lastUpdatedAt: z.string(), pollInterval: z.number().optional() }).passthrough();
const CreateTaskResult = z.object({ task: Task }).passthrough();
const AnyResult = z.record(z.string(), z.unknown());
const TaskList = z.object({ tasks: z.array(Task), nextCursor: z.string().optional() }).passthrough();

const events: string[] = [];
function server(): McpServerData {
  return {
    capabilities: { logging: true },
    tools: [
      {
        name: 'build_report',
        description: 'Builds a report; long-running.',
        inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
        execution: { taskSupport: 'optional' },
        handler: async ({ arguments: a, signal }) => {
          await new Promise<void>((resolve, reject) => {
            const t = setTimeout(resolve, a.ms as number);
            signal.addEventListener('abort', () => {
              clearTimeout(t);
              events.push('aborted');
              reject(signal.reason);
            });
          });
          return formatToolResult({ pages: 3 });
        },
      },
      { name: 'only_async', description: 'Runs only as a task.', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' }, handler: () => formatToolResult('done') },
      {
        name: 'ask_in_task',
        description: 'Asks the user from inside a task.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'optional' },
        handler: async ({ client }) => formatToolResult(await client.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } })),
      },
      { name: 'only_sync', description: 'Never a task.', inputSchema: { type: 'object' }, handler: () => formatToolResult('sync') },
      {
        name: 'log_in_task',
        description: 'Logs at two levels from inside a task.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'optional' },
        handler: async ({ client }) => {
          await client.log('debug', 'task detail');
          await client.log('warning', 'task warning');
          return formatToolResult('logged');
        },
      },
    ],
  };
}

const targets2025 = ALL_TARGETS.filter((t) => t.era === '2025');

describe.each(targets2025)('tasks on $label', (target) => {
  let s: TestServer;
  let client: Client;
  const statuses: string[] = [];
  beforeAll(async () => {
    s = await startTestServer(server(), { target, config: { mcp: { tasks: { enabled: true, maxTasks: 5, pollIntervalMs: 50 } } } });
    client = await s.connect({}, (c) =>
      onTaskStatus(c, (params) => {
        statuses.push(String(params.status));
      }),
    );
  });
  afterAll(() => s.stop());

  const call = (name: string, args: Record<string, unknown>, task?: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params: { name, arguments: args, ...(task ? { task } : {}) } }, task ? CreateTaskResult : AnyResult);

  it('declares the tasks capability', () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it('answers a task-augmented call at once; tasks/result returns what a synchronous call returns', async () => {
    const created = (await call('build_report', { ms: 1500 }, { ttl: 120_000 })) as z.infer<typeof CreateTaskResult>;
    // Answered before the work ended (however slow the machine): the task is still working.
    expect(created.task.status).toBe('working');
    expect(created.task.ttl).toBe(120_000);
    const got = await client.request({ method: 'tasks/get', params: { taskId: created.task.taskId } }, Task);
    expect(['working', 'completed']).toContain(got.status);
    const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, AnyResult);
    const sync = await call('build_report', { ms: 1 });
    expect(result.structuredContent).toEqual(sync.structuredContent);
    expect(result.content).toEqual(sync.content);
    expect((result._meta as Record<string, { taskId: string }>)['io.modelcontextprotocol/related-task']?.taskId).toBe(created.task.taskId);
    // A stateless endpoint has no connection to send unsolicited notifications on.
    if (target.transport !== 'stateless') await expect.poll(() => statuses).toContain('completed');
  });

  it('cancels a running task: the handler stops and the task stays cancelled', async () => {
    const created = (await call('build_report', { ms: 10_000 }, {})) as z.infer<typeof CreateTaskResult>;
    const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: created.task.taskId } }, Task);
    expect(cancelled.status).toBe('cancelled');
    await expect.poll(() => events).toContain('aborted');
    const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, AnyResult);
    expect(result.isError).toBe(true);
  });

  it('lists the caller tasks, newest first', async () => {
    const list = await client.request({ method: 'tasks/list', params: {} }, TaskList);
    expect(list.tasks.length).toBeGreaterThanOrEqual(2);
    const times = list.tasks.map((t) => Date.parse(t.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('refuses a synchronous call of a task-only tool, and a task of a synchronous-only tool', async () => {
    await expectToolError(call('only_async', {}), MCP_ERROR_CODES.INVALID_PARAMS);
    await expectToolError(call('only_sync', {}, {}), MCP_ERROR_CODES.INVALID_PARAMS);
    const done = (await call('only_async', {}, {})) as z.infer<typeof CreateTaskResult>;
    const result = await client.request({ method: 'tasks/result', params: { taskId: done.task.taskId } }, AnyResult);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('a task asking for input the client did not declare fails with -32021, as a synchronous call would', async () => {
    const created = (await call('ask_in_task', {}, {})) as z.infer<typeof CreateTaskResult>;
    await expectToolError(client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, AnyResult), -32021);
  });

  it('refuses an unknown task id with -32602', async () => {
    await expectToolError(client.request({ method: 'tasks/get', params: { taskId: 'nope' } }, Task), MCP_ERROR_CODES.INVALID_PARAMS);
  });

  it('refuses a task past the retained-task cap with a retryable capacity error', async () => {
    // maxTasks is 5 and four tasks exist; fill the last slot, then one more
    await call('build_report', { ms: 1 }, {});
    const err = await expectToolError(call('build_report', { ms: 1 }, {}), MCP_ERROR_CODES.RATE_LIMITED, 'at most 5 tasks');
    expect(err.data).toMatchObject({ maxTasks: 5, retryAfter: 5 });
  });
});

describe.each(targets2025.filter((t) => t.transport !== 'stateless'))("a task's logs on $label", (target) => {
  it('obey the level the client set on the connection', async () => {
    const s = await startTestServer(server(), { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 } } } });
    try {
      const logs: Array<{ level: string; data: unknown }> = [];
      const client = await s.connect({}, (c) =>
        c.setNotificationHandler('notifications/message', (n) => {
          logs.push({ level: n.params.level, data: n.params.data });
        }),
      );
      await client.setLoggingLevel('warning');
      const created = await client.request({ method: 'tools/call', params: { name: 'log_in_task', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResult);
      await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, AnyResult);
      await expect.poll(() => logs).toEqual([{ level: 'warning', data: 'task warning' }]);
    } finally {
      await s.stop();
    }
  });
});

describe('client input inside a 2025-era task', () => {
  it('marks the task input_required while the client answers, relates the request to the task, then completes', async () => {
    const target = targets2025.find((t) => t.label === 'http-session/2025');
    if (!target) throw new Error('http-session/2025 target missing');
    const s = await startTestServer(server(), { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 } } } });
    try {
      const seen: Array<{ status: string; related: unknown }> = [];
      const holder: { client?: Client } = {};
      const client = await s.connect({ capabilities: { elicitation: { form: {} } } }, (c) =>
        c.setRequestHandler('elicitation/create', async (req) => {
          const related = (req.params._meta as Record<string, { taskId?: string }> | undefined)?.['io.modelcontextprotocol/related-task'];
          const status = holder.client && related?.taskId ? (await holder.client.request({ method: 'tasks/get', params: { taskId: related.taskId } }, Task)).status : 'unknown';
          seen.push({ status, related });
          return { action: 'accept', content: {} };
        }),
      );
      holder.client = client;
      const created = (await client.request(
        { method: 'tools/call', params: { name: 'ask_in_task', arguments: {}, task: {} } },
        CreateTaskResult,
      )) as z.infer<typeof CreateTaskResult>;
      const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, AnyResult);
      expect(result.structuredContent).toMatchObject({ action: 'accept' });
      expect(seen).toEqual([{ status: 'input_required', related: { taskId: created.task.taskId } }]);
      expect((await client.request({ method: 'tasks/get', params: { taskId: created.task.taskId } }, Task)).status).toBe('completed');
    } finally {
      await s.stop();
    }
  });
});
