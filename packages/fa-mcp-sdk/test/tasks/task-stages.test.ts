/**
 * A task handler reports its stage (`params.setTaskStatusMessage`): the task
 * runs on instance A, a client polling tasks/get on instance B (one PostgreSQL
 * task store) sees each of the four stages as `statusMessage`, and on a
 * 2025-era connection the status notifications carry it too. On both eras and
 * both request paths of each (the core routes are on or off; task calls are
 * served by the SDK's). The handler waits for the test between stages, so
 * nothing depends on timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { formatToolResult, type McpServerData } from '../../src/index.js';
import { ALL_TARGETS, startTestServer, type TestServer } from '../../src/testing/index.js';
import { onTaskStatus } from '../integration/helpers.js';
import { createTestSchema, type TestSchema } from './pg-test-db.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Rec = Record<string, unknown>;
const STAGES = ['Stage 1 of 4: framing the question', 'Stage 2 of 4: searching', 'Stage 3 of 4: reading', 'Stage 4 of 4: writing the answer'];

/** Gates the handler waits on, by run label and stage index: the test opens them. */
const gates = new Map<string, () => void>();
const gate = (run: string, i: number) => new Promise<void>((resolve) => gates.set(`${run}/${i}`, resolve));
const open = (run: string, i: number) => {
  const release = gates.get(`${run}/${i}`);
  if (!release) return false;
  gates.delete(`${run}/${i}`);
  release();
  return true;
};

const data: McpServerData = {
  tools: [
    {
      name: 'research',
      description: 'Works through four stages, reporting each.',
      inputSchema: { type: 'object', properties: { run: { type: 'string' } }, required: ['run'] },
      execution: { taskSupport: 'required' },
      handler: async ({ arguments: a, setTaskStatusMessage }) => {
        const run = String(a.run);
        for (const [i, stage] of STAGES.entries()) {
          setTaskStatusMessage(stage);
          await gate(run, i);
        }
        return formatToolResult({ run, stages: STAGES.length });
      },
    },
  ],
};

/** `check` until it holds, or the deadline: polling the way a client does. */
async function until<T>(what: string, read: () => Promise<T>, check: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: never held; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Opens the gate of stage `i` once the handler reached it (it sets the gate right after reporting). */
const release = (run: string, i: number) => until(`gate ${run}/${i}`, async () => open(run, i), (opened) => opened);

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('task_stages');
}, 30_000);
afterAll(async () => {
  await db?.drop();
}, 30_000);

const config = () => ({
  mcp: { tasks: { enabled: true, store: 'postgres', pollIntervalMs: 100 }, notifications: { bus: 'postgres' } },
  db: { postgres: { dbs: { main: { url: db.url, poolSize: 4 } } } },
});

const pairOf = (label: string) => {
  const target = ALL_TARGETS.find((t) => t.label === label);
  if (!target) throw new Error(`no target ${label}`);
  return Promise.all([startTestServer(data, { target, config: config() }), startTestServer(data, { target, config: config() })]);
};

describe.each(['http/2026', 'http-sdk/2026'])('task stages across two instances on %s', (label) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await pairOf(label);
  }, 30_000);
  afterAll(() => Promise.all([a?.stop(), b?.stop()]));

  it('tasks/get on the other instance shows each stage as statusMessage, then the result', async () => {
    const capabilities = { extensions: { [TASKS]: {} } };
    const onA = a.wire2026({ capabilities });
    const onB = b.wire2026({ capabilities });
    const run = `2026-${label}`;
    const created = await onA.request('tools/call', { name: 'research', arguments: { run } });
    expect(created.resultType).toBe('task');
    const get = () => onB.request('tasks/get', { taskId: created.taskId });
    for (const [i, stage] of STAGES.entries()) {
      const seen = await until(`stage ${i + 1} on B`, get, (t) => t.statusMessage === stage);
      expect(seen.status).toBe('working');
      await release(run, i);
    }
    const done = await until('completed on B', get, (t) => t.status === 'completed');
    expect(done.result).toMatchObject({ structuredContent: { run, stages: 4 } });
  });
});

const Created = z.object({ task: z.object({ taskId: z.string() }).passthrough() }).passthrough();
const Task = z.object({ taskId: z.string(), status: z.string(), statusMessage: z.string().optional() }).passthrough();

describe.each(['http-session/2025', 'http-session-sdk/2025'])('task stages across two instances on %s', (label) => {
  let a: TestServer;
  let b: TestServer;
  let onA: Client;
  let onB: Client;
  const notified: Rec[] = [];
  beforeAll(async () => {
    [a, b] = await pairOf(label);
    onA = await a.connect({}, (c) => onTaskStatus(c, (params) => notified.push(params)));
    onB = await b.connect();
  }, 30_000);
  afterAll(() => Promise.all([a?.stop(), b?.stop()]));

  it('tasks/get on the other instance shows each stage, and the status notifications carry it', async () => {
    const run = `2025-${label}`;
    const { task } = await onA.request({ method: 'tools/call', params: { name: 'research', arguments: { run }, task: {} } }, Created);
    const get = () => onB.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Task);
    for (const [i, stage] of STAGES.entries()) {
      const seen = await until(`stage ${i + 1} on B`, get, (t) => t.statusMessage === stage);
      expect(seen.status).toBe('working');
      await until(`notification of stage ${i + 1}`, async () => notified, (n) => n.some((p) => p.taskId === task.taskId && p.statusMessage === stage));
      await release(run, i);
    }
    await until('completed on B', get, (t) => t.status === 'completed');
  });
});
