/**
 * Client input of tasks through the record (2026-07-28 tasks extension), on
 * both stores: fresh keys, answers from concurrent writers taken exactly once,
 * the waiting handler released by the answer, by cancellation, or by the end
 * of the task.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryNotificationBus } from '../../src/state/notification-bus.js';
import { TaskInputs } from '../../src/tasks/task-inputs.js';
import { InMemoryTaskStore } from '../../src/tasks/task-store-memory.js';
import { PostgresTaskStore } from '../../src/tasks/task-store-postgres.js';
import type { ITaskStore } from '../../src/tasks/task-types.js';
import { createTestSchema, type TestSchema } from './pg-test-db.js';

let db: TestSchema;
beforeAll(async () => {
  db = await createTestSchema('task_inputs');
});
afterAll(async () => {
  await db?.drop();
});

const stores: Array<{ name: string; make: () => Promise<ITaskStore> }> = [
  { name: 'memory', make: async () => new InMemoryTaskStore({ maxTasks: 100 }) },
  {
    name: 'postgres',
    make: async () => {
      const store = new PostgresTaskStore(db.pool, { maxTasks: 100 });
      await store.migrate();
      return store;
    },
  },
];

const ELICIT = { method: 'elicitation/create', params: { message: 'ok?' } };

describe.each(stores)('TaskInputs on $name', ({ make }) => {
  async function setup(pollMs = 1_000) {
    const store = await make();
    const bus = new InMemoryNotificationBus();
    const published: string[] = [];
    const inputs = new TaskInputs({ store, bus, pollMs, published: async (r) => void published.push(r.status) });
    const task = await store.create({ taskId: randomUUID(), owner: 'o', toolName: 't', arguments: {}, ttlMs: 60_000, pollIntervalMs: 100, leaseOwner: 'i', leaseMs: 10_000 });
    return { store, inputs, task, published };
  }
  const waitFor = async (store: ITaskStore, id: string, n: number) => {
    for (let i = 0; i < 200; i++) {
      const r = await store.get(id);
      if (Object.keys(r?.inputRequests ?? {}).length === n) return r;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('input requests never appeared');
  };

  it('takes concurrent answers to two requests exactly once each, and wakes each asker without polling', async () => {
    // A poll far beyond the test's timeout: only the answer's event can release the askers in time.
    const { store, inputs, task, published } = await setup(10 * 60_000);
    const ctl = new AbortController();
    const asks = Promise.all([inputs.ask(task.taskId, ELICIT, ctl.signal), inputs.ask(task.taskId, ELICIT, ctl.signal)]);
    const asked = await waitFor(store, task.taskId, 2);
    expect(asked?.status).toBe('input_required');
    const [k1, k2] = Object.keys(asked?.inputRequests ?? {}) as [string, string];
    expect(k1).not.toBe(k2);
    const outcomes = await Promise.all([
      inputs.answer(task.taskId, { [k1]: { action: 'accept', content: { n: 1 } } }),
      inputs.answer(task.taskId, { [k2]: { action: 'accept', content: { n: 2 } } }),
      inputs.answer(task.taskId, { [k1]: { action: 'accept', content: { n: 99 } } }),
    ]);
    const answers = await asks;
    // each asker got the answer to its own key: k2's, and k1's from whichever writer came first
    const got = answers.map((a) => (a.content as { n: number }).n).sort((x, y) => x - y);
    expect([[1, 2], [2, 99]]).toContainEqual(got);
    // k1 was taken once: by whichever of the two writers came first; the other was ignored
    expect(outcomes.flatMap((o) => o.accepted).sort()).toEqual([k1, k2].sort());
    expect(outcomes.flatMap((o) => o.ignored)).toEqual([k1]);
    const after = await store.get(task.taskId);
    expect(after?.status).toBe('working');
    expect(after?.inputRequests).toEqual({});
    expect(after?.inputResponses).toEqual({});
    expect(published).toContain('input_required');
    inputs.close();
  });

  it('releases a waiting asker with an error when the task is cancelled or its signal aborts', async () => {
    const { store, inputs, task } = await setup();
    const ctl = new AbortController();
    const first = inputs.ask(task.taskId, ELICIT, ctl.signal);
    await waitFor(store, task.taskId, 1);
    ctl.abort(new Error('stopped'));
    await expect(first).rejects.toThrow('stopped');
    const second = inputs.ask(task.taskId, ELICIT, new AbortController().signal);
    await waitFor(store, task.taskId, 2);
    await store.update(task.taskId, { status: 'cancelled' });
    await expect(second).rejects.toThrow(/ended while waiting/);
    await expect(inputs.ask(task.taskId, ELICIT, new AbortController().signal)).rejects.toThrow(/ended before/);
    inputs.close();
  });
});
