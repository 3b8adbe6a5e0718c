/**
 * The 2026-07-28 tasks extension across two instances on one PostgreSQL: a
 * task created on A is read on B, its input request is answered on B and the
 * handler on A goes on with that answer; a cancel sent to B stops the handler
 * running on A; another caller reaches nothing of it on either instance.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatToolResult, MCP_ERROR_CODES, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer, type WireClient2026 } from '../../src/testing/index.js';
import { createTestSchema, type TestSchema } from './pg-test-db.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Rec = Record<string, unknown>;
const http2026 = ALL_TARGETS.find((t) => t.label === 'http/2026');
if (!http2026) throw new Error('http/2026 target missing');

const events: string[] = [];
const data = (name: string): McpServerData => ({
  tools: [
    {
      name: 'approve',
      description: 'Asks for approval, then reports which instance finished it.',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'required' },
      handler: async ({ client }) => {
        const reply = await client.elicit({ message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
        return formatToolResult({ approved: (reply.content as Rec | undefined)?.ok, finishedOn: name });
      },
    },
    {
      name: 'wait',
      description: 'Waits until cancelled.',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'required' },
      handler: ({ signal }) =>
        new Promise((_, reject) => {
          events.push(`started on ${name}`);
          signal.addEventListener('abort', () => {
            events.push(`aborted on ${name}`);
            reject(signal.reason);
          });
        }),
    },
  ],
});

let db: TestSchema;
let a: TestServer;
let b: TestServer;
let onA: WireClient2026;
let onB: WireClient2026;

beforeAll(async () => {
  db = await createTestSchema('tasks_2026_shared');
  const config = {
    // The change bus on the same database: the tasks share its LISTEN connection (one per instance).
    mcp: { tasks: { enabled: true, store: 'postgres', pollIntervalMs: 100 }, notifications: { bus: 'postgres' } },
    db: { postgres: { dbs: { main: { url: db.url, poolSize: 4 } } } },
  };
  [a, b] = await Promise.all([startTestServer(data('A'), { target: http2026, config }), startTestServer(data('B'), { target: http2026, config })]);
  const capabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
  onA = a.wire2026({ capabilities });
  onB = b.wire2026({ capabilities });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

async function until(client: WireClient2026, taskId: unknown, done: (t: Rec) => boolean): Promise<Rec> {
  for (let i = 0; i < 150; i++) {
    const t = await client.request('tasks/get', { taskId });
    if (done(t)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${String(taskId)} never reached the expected state`);
}

it('an input request of a task running on A is answered through B, and A finishes with that answer', async () => {
  const created = await onA.request('tools/call', { name: 'approve', arguments: {} });
  expect(created.resultType).toBe('task');
  const asking = await until(onB, created.taskId, (t) => t.status === 'input_required');
  const key = Object.keys(asking.inputRequests as Rec)[0] as string;
  await onB.request('tasks/update', { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } });
  const done = await until(onB, created.taskId, (t) => t.status === 'completed');
  expect(done.result).toMatchObject({ structuredContent: { approved: true, finishedOn: 'A' } });
});

it('a cancel sent to B stops the handler running on A', async () => {
  const created = await onA.request('tools/call', { name: 'wait', arguments: {} });
  await until(onB, created.taskId, () => events.includes('started on A'));
  await onB.request('tasks/cancel', { taskId: created.taskId });
  expect((await onA.request('tasks/get', { taskId: created.taskId })).status).toBe('cancelled');
  await until(onA, created.taskId, () => events.includes('aborted on A'));
});

it('an id one character off a real task is unknown on both instances (ids are not guessable by neighbourhood)', async () => {
  const created = await onA.request('tools/call', { name: 'wait', arguments: {} });
  // Without auth the caller is known by its address; a different address is another caller.
  // Here both clients share 127.0.0.1, so the proof of ownership lives in tasks-auth.test.ts;
  // this checks the unguessable id: a near miss is unknown on both instances.
  const near = `${String(created.taskId).slice(0, -1)}${String(created.taskId).endsWith('0') ? '1' : '0'}`;
  for (const client of [onA, onB]) {
    await expect(client.request('tasks/get', { taskId: near })).rejects.toMatchObject({ code: MCP_ERROR_CODES.INVALID_PARAMS });
  }
  await onB.request('tasks/cancel', { taskId: created.taskId });
});
