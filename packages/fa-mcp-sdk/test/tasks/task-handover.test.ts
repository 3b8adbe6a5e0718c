/**
 * Handovers at a planned stop against crashes, on both stores (memory; PostgreSQL
 * with its LISTEN/NOTIFY bus, one bus per instance as separate processes have):
 * a task handed over at planned stops is re-run every time and never counts
 * against MAX_TASK_ATTEMPTS; a crash (the lease runs out, here on an injected
 * clock) still does; a stopping instance takes nothing over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreLogger } from '../../src/core/core.js';
import type { Operation } from '../../src/core/pipeline.js';
import { InMemoryNotificationBus, type INotificationBus } from '../../src/state/notification-bus.js';
import { PostgresNotificationBus } from '../../src/state/notification-bus-postgres.js';
import { MAX_TASK_ATTEMPTS, TaskManager } from '../../src/tasks/task-manager.js';
import { InMemoryTaskStore } from '../../src/tasks/task-store-memory.js';
import { PostgresTaskStore } from '../../src/tasks/task-store-postgres.js';
import type { ITaskRecord, ITaskStore } from '../../src/tasks/task-types.js';
import { useTestSchema } from './pg-test-db.js';

const silent: CoreLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => silent };
const LEASE_MS = 600_000; // far past any deadline here: nothing is taken over by waiting for a lease to run out

function op(name: string): Operation {
  return {
    method: 'tools/call',
    target: { kind: 'tool', name },
    caller: undefined,
    ctx: { requestId: 'r1', era: '2025', transport: 'memory', clientCapabilities: {} },
    params: { name, arguments: {} },
    signal: new AbortController().signal,
    client: { log: async () => {}, elicit: async () => ({}), sample: async () => ({}), listRoots: async () => ({}), notify: async () => {}, resumed: false },
    sendProgress: () => {},
    state: new Map(),
  };
}

const db = useTestSchema('tasks_handover');

interface Shared {
  store: ITaskStore;
  /** The bus of one more instance (one shared in-memory bus, or a LISTEN connection each). */
  bus(): Promise<INotificationBus>;
}

const setups: Array<{ name: string; make: () => Promise<Shared> }> = [
  {
    name: 'memory',
    make: async () => {
      const bus = new InMemoryNotificationBus();
      return { store: new InMemoryTaskStore({ maxTasks: 100 }), bus: async () => bus };
    },
  },
  {
    name: 'postgres',
    make: async () => {
      const { pool, url } = db();
      const store = new PostgresTaskStore(pool, { maxTasks: 100 });
      await store.migrate();
      await pool.query('DELETE FROM fa_mcp_tasks');
      return {
        store,
        bus: async () => {
          const bus = new PostgresNotificationBus(pool, { connectionString: url }, silent);
          await bus.start();
          buses.push(bus);
          return bus;
        },
      };
    },
  },
];

const managers: TaskManager[] = [];
const buses: INotificationBus[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

/** Runs on every instance: each run is recorded and waits until the test lets it finish (or it is aborted). */
function runs() {
  const started: string[] = [];
  let finish: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return {
    started,
    finish: () => finish?.(),
    run: (instance: string) => async (o: Operation) => {
      started.push(instance);
      await new Promise<void>((resolve, reject) => {
        void gate.then(resolve);
        o.signal.addEventListener('abort', () => reject(o.signal.reason as Error));
      });
      return { content: [{ type: 'text', text: `done on ${instance}` }] };
    },
  };
}

async function instance(shared: Shared, name: string, r: ReturnType<typeof runs>): Promise<TaskManager> {
  const m = new TaskManager({
    store: shared.store,
    bus: await shared.bus(),
    logger: silent,
    instanceId: name,
    run: r.run(name),
    // `report` may run twice, `charge_card` may not
    rerun: async (rec: ITaskRecord) => (rec.toolName === 'report' ? op('report') : undefined),
    defaultTtlMs: 3_600_000,
    minTtlMs: 1_000,
    maxTtlMs: 3_600_000,
    pollIntervalMs: 50,
    leaseMs: LEASE_MS,
  });
  managers.push(m);
  return m;
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `instance` has started a run. */
const ranOn = (r: ReturnType<typeof runs>, instance: string) => until(`a run on ${instance}`, () => (r.started.includes(instance) ? true : undefined));

/** Instances A and B on one store, and a task of `tool` running on A. */
async function taskRunningOnA(make: () => Promise<Shared>, tool: string) {
  const shared = await make();
  const r = runs();
  const a = await instance(shared, 'A', r);
  const b = await instance(shared, 'B', r);
  const task = await a.start(op(tool), 'alice');
  await ranOn(r, 'A');
  return { shared, r, a, b, task };
}

describe.each(setups)('task handover: $name store', ({ make }) => {
  it('two planned stops hand the task over twice without using the crash allowance; then one crash is re-run and a second fails it', async () => {
    const { shared, r, a, b, task } = await taskRunningOnA(make, 'report');

    // Planned stop of A: handed over (not abandoned), and B runs it now, not after the 600 s lease.
    expect(await a.drain(0, { release: true })).toEqual({ finished: 0, handedOver: 1, abandoned: 0 });
    await ranOn(r, 'B');
    expect(await shared.store.get(task.taskId)).toMatchObject({ status: 'working', leaseOwner: 'B', attempts: 2, handovers: 1 });

    // Planned stop of B during the re-run: handed over again, though two runs have been started.
    const c = await instance(shared, 'C', r);
    expect(await b.drain(0, { release: true })).toEqual({ finished: 0, handedOver: 1, abandoned: 0 });
    await ranOn(r, 'C');
    const onC = await shared.store.get(task.taskId);
    expect(onC).toMatchObject({ status: 'working', leaseOwner: 'C', attempts: 3, handovers: 2 });
    expect(onC?.statusMessage).toMatch(/planned stop/);
    expect(onC?.release).toBeUndefined();
    expect([b.runningCount, c.runningCount]).toEqual([0, 1]);

    // C crashes: no release, its lease runs out (an injected clock). The crash counts, and it is the first: re-run.
    const d = await instance(shared, 'D', r);
    const afterC = Date.now() + LEASE_MS + 1;
    expect(await d.recoverOrphans(afterC)).toBe(1);
    expect(await shared.store.get(task.taskId)).toMatchObject({ status: 'working', leaseOwner: 'D', attempts: 4, handovers: 2 });
    expect(r.started).toEqual(['A', 'B', 'C', 'D']);

    // D crashes too: the crash allowance is used up, so it is failed, saying an instance stopped.
    const e = await instance(shared, 'E', r);
    expect(await e.recoverOrphans(afterC + LEASE_MS + 1)).toBe(1);
    const failed = await e.waitForTerminal(task.taskId, 'alice');
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, statusMessage: 'The server instance running this task stopped before it finished; call the tool again.' });
    expect(r.started).toEqual(['A', 'B', 'C', 'D']);
  });

  it('a task handed over completes on the instance that took it', async () => {
    const { r, a, b, task } = await taskRunningOnA(make, 'report');
    await a.drain(0, { release: true });
    await ranOn(r, 'B');
    r.finish();
    expect(await b.waitForTerminal(task.taskId, 'alice')).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done on B' }] } });
  });

  it('a planned stop fails a task whose tool may not run twice, saying so, and counts it as abandoned', async () => {
    const { r, a, b, task } = await taskRunningOnA(make, 'charge_card');
    expect(await a.drain(0, { release: true })).toEqual({ finished: 0, handedOver: 0, abandoned: 1 });
    expect(await b.waitForTerminal(task.taskId, 'alice')).toMatchObject({
      status: 'failed',
      attempts: 1,
      statusMessage: 'Interrupted by a planned stop of instance A before it finished; the tool is not idempotent, so it is not run again: call the tool again.',
    });
    expect(r.started).toEqual(['A']);
  });

  it('an instance that is stopping takes over nothing; the next one that is not takes the released task', async () => {
    const shared = await make();
    const r = runs();
    const a = await instance(shared, 'A', r);
    const b = await instance(shared, 'B', r);
    b.beginStop();
    const task = await a.start(op('report'), 'alice');
    await ranOn(r, 'A');
    await a.drain(0, { release: true });
    expect(await b.recoverOrphans()).toBe(0);
    expect(await shared.store.get(task.taskId)).toMatchObject({ status: 'working', leaseOwner: 'A', leaseExpiresAt: 0, release: { reason: 'planned_stop', instance: 'A' } });
    const c = await instance(shared, 'C', r); // as an instance that starts: its first sweep finds the task
    expect(await c.recoverOrphans()).toBe(1);
    r.finish();
    expect(await c.waitForTerminal(task.taskId, 'alice')).toMatchObject({ status: 'completed', leaseOwner: 'C', attempts: 2, handovers: 1 });
    expect(r.started).toEqual(['A', 'C']);
  });

  it('a release the lease holder did not make (an older instance took the lease and kept the field) is a crash like any other', async () => {
    const shared = await make();
    const r = runs();
    const t = await shared.store.create({ taskId: crypto.randomUUID(), owner: 'alice', toolName: 'report', arguments: {}, ttlMs: 3_600_000, pollIntervalMs: 50, leaseOwner: 'old', leaseMs: 10, now: Date.now() - 1_000 });
    await shared.store.update(t.taskId, { attempts: MAX_TASK_ATTEMPTS, release: { reason: 'planned_stop', instance: 'A', at: Date.now() - 2_000 } });
    const b = await instance(shared, 'B', r);
    expect(await b.recoverOrphans()).toBe(1);
    expect(await b.waitForTerminal(t.taskId, 'alice')).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/stopped before it finished/) });
    expect(r.started).toEqual([]);
  });
});
