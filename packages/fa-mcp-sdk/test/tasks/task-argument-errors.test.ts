/**
 * A task-augmented call whose arguments fail the inputSchema, under both
 * settings of `mcp.validation.argumentErrors`, on every target of each era.
 * The handler never runs either way.
 *
 * - 2025-11-25 tasks: the task is created first (the CreateTaskResult answers at
 *   once) and the call runs inside it, so the answer is in the task: `failed`,
 *   and tasks/result returns the isError result (`result`) or -32602 (`protocol`).
 * - 2026-07-28 tasks extension: the arguments are checked before the task
 *   would start, so the request itself is answered: the isError result with no
 *   task (`result`), or -32602 (`protocol`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type WireClient2026 } from '../../src/testing/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const MESSAGE = 'Invalid arguments for tool report: ms must be integer';
const ISSUE = { field: 'ms', reason: 'must be integer' };
const AnyResult = z.record(z.string(), z.unknown());
const CreateTaskResult = z.object({ task: z.object({ taskId: z.string(), status: z.string() }).passthrough() }).passthrough();
const Task = z.object({ taskId: z.string(), status: z.string(), statusMessage: z.string().optional() }).passthrough();

function server(ran: string[]): McpServerData {
  return {
    tools: [
      {
        name: 'report',
        description: 'Long-running; a task when the client asks for one.',
        inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] },
        execution: { taskSupport: 'optional' },
        handler: () => {
          ran.push('report');
          return formatToolResult({ pages: 3 });
        },
      },
    ],
  };
}

const SETTINGS = [
  { label: 'default (result)', mode: 'result' as const, validation: {} },
  { label: 'protocol', mode: 'protocol' as const, validation: { argumentErrors: 'protocol' } },
];

type Refusal = { code?: number; message?: string; data?: Record<string, unknown>; result?: unknown };
const errorOf = (p: Promise<unknown>): Promise<Refusal> =>
  p.then(
    (res) => ({ result: res }),
    (e: unknown) => e as Refusal,
  );

describe.each(ALL_TARGETS.filter((t) => t.era === '2025'))('2025-11-25 task with bad arguments on $label', (target) => {
  describe.each(SETTINGS)('argumentErrors: $label', ({ mode, validation }) => {
    let s: TestServer;
    let client: Client;
    const ran: string[] = [];
    beforeAll(async () => {
      s = await startTestServer(server(ran), { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 }, validation } } });
      client = await s.connect();
    });
    afterAll(() => s.stop());

    it('creates the task, which fails with the argument error in it; the handler never runs', async () => {
      const created = await client.request({ method: 'tools/call', params: { name: 'report', arguments: { ms: 'soon' }, task: {} } }, CreateTaskResult);
      const taskId = created.task.taskId;
      await expect.poll(async () => (await client.request({ method: 'tasks/get', params: { taskId } }, Task)).status).toBe('failed');
      const outcome = client.request({ method: 'tasks/result', params: { taskId } }, AnyResult);
      if (mode === 'result') {
        const result = await outcome;
        expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: MESSAGE }] });
        const meta = result._meta as Record<string, unknown>;
        expect(meta['fa-mcp/validation']).toEqual(ISSUE);
        expect(meta['io.modelcontextprotocol/related-task']).toEqual({ taskId });
        expect((await client.request({ method: 'tasks/get', params: { taskId } }, Task)).statusMessage).toBe(MESSAGE);
      } else {
        const err = await errorOf(outcome);
        expect(err).toMatchObject({ code: MCP_ERROR_CODES.INVALID_PARAMS, data: { ...ISSUE, taskId } });
        expect(err.message).toContain(MESSAGE);
      }
      expect(ran).toEqual([]);
    });
  });
});

describe.each(ALL_TARGETS.filter((t) => t.era === '2026'))('2026-07-28 tasks extension call with bad arguments on $label', (target) => {
  describe.each(SETTINGS)('argumentErrors: $label', ({ mode, validation }) => {
    let s: TestServer;
    let client: WireClient2026;
    const ran: string[] = [];
    beforeAll(async () => {
      s = await startTestServer(server(ran), { target, config: { mcp: { tasks: { enabled: true, pollIntervalMs: 50 }, validation } } });
      client = s.wire2026({ capabilities: { extensions: { [TASKS]: {} } } });
    });
    afterAll(() => s.stop());

    it('answers the request itself, no task created; the handler never runs', async () => {
      const answer = client.request('tools/call', { name: 'report', arguments: { ms: 'soon' } });
      if (mode === 'result') {
        const result = await answer;
        expect(result).not.toHaveProperty('taskId');
        expect(result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: MESSAGE }], _meta: { 'fa-mcp/validation': ISSUE } });
      } else {
        const err = await errorOf(answer);
        expect(err).toMatchObject({ code: MCP_ERROR_CODES.INVALID_PARAMS, data: ISSUE });
      }
      // Good arguments do become a task.
      expect((await client.request('tools/call', { name: 'report', arguments: { ms: 0 } })).resultType).toBe('task');
      await expect.poll(() => ran.length).toBe(1);
    });
  });
});
