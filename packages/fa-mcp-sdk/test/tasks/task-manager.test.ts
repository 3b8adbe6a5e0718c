/**
 * TaskManager on the in-memory store and bus: lifecycle, cancellation,
 * ownership, orphan recovery and graceful drain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreLogger } from '../../src/core/core.js';
import { ToolExecutionError } from '../../src/core/errors.js';
import type { Operation } from '../../src/core/pipeline.js';
import { InMemoryNotificationBus } from '../../src/state/notification-bus.js';
import { TaskManager } from '../../src/tasks/task-manager.js';
import { InMemoryTaskStore } from '../../src/tasks/task-store-memory.js';

const silent: CoreLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, child: () => silent };

function op(name: string, args: Record<string, unknown> = {}): Operation {
  return {
    method: 'tools/call',
    target: { kind: 'tool', name },
    caller: undefined,
    ctx: { requestId: 'r1', era: '2025', transport: 'memory', clientCapabilities: {} },
    params: { name, arguments: args },
    signal: new AbortController().signal,
    client: { log: async () => {}, elicit: async () => ({}), sample: async () => ({}), listRoots: async () => ({}), notify: async () => {}, resumed: false },
    sendProgress: () => {},
    state: new Map(),
  };
}

const managers: TaskManager[] = [];
function manager(run: (op: Operation) => Promise<unknown>, over: Partial<{ leaseMs: number; maxTasks: number }> = {}) {
  const m = new TaskManager({
    store: new InMemoryTaskStore({ maxTasks: over.maxTasks ?? 100 }),
    bus: new InMemoryNotificationBus(),
    logger: silent,
    run,
    defaultTtlMs: 60_000,
    minTtlMs: 1_000,
    maxTtlMs: 3_600_000,
    pollIntervalMs: 50,
    leaseMs: over.leaseMs ?? 30_000,
  });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

async function waitForRuns(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the tasks did not start in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
  });

describe('TaskManager', () => {
  it('runs a task to completion and returns the same result a synchronous call would', async () => {
    const m = manager(async () => ({ content: [{ type: 'text', text: 'report ready' }] }));
    const statuses: string[] = [];
    m.onStatus((r) => statuses.push(r.status));
    const created = await m.start(op('report'), 'alice');
    expect(created.status).toBe('working');
    const done = await m.waitForTerminal(created.taskId, 'alice');
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'report ready' }] });
    await expect.poll(() => statuses).toContain('completed');
  });

  it('records a failed task with a sanitized message', async () => {
    const m = manager(async () => {
      throw new Error('db password=hunter2 at /srv/x.ts');
    });
    const t = await m.start(op('report'), 'alice');
    const done = await m.waitForTerminal(t.taskId, 'alice');
    expect(done.status).toBe('failed');
    expect(done.statusMessage).toBe('The task failed');
    expect(JSON.stringify(done)).not.toContain('hunter2');
  });

  it('keeps a tool error message (ToolExecutionError is meant for the client)', async () => {
    const m = manager(async () => {
      throw new ToolExecutionError('quota exhausted');
    });
    const t = await m.start(op('report'), 'alice');
    expect((await m.waitForTerminal(t.taskId, 'alice')).statusMessage).toBe('quota exhausted');
  });

  it("a tool error result (isError) is failed with the tool's own message, not a generic one", async () => {
    const plain = manager(async () => ({ content: [{ type: 'text', text: 'no such city: Atlantis' }], isError: true }));
    const a = await plain.start(op('report'), 'alice');
    expect(await plain.waitForTerminal(a.taskId, 'alice')).toMatchObject({ status: 'failed', statusMessage: 'no such city: Atlantis' });
    // With data: the JSON mirror of structuredContent stands first; the message is its `error`.
    const structured = { error: 'quota exhausted', left: 0 };
    const withData = manager(async () => ({ content: [{ type: 'text', text: JSON.stringify(structured) }, { type: 'text', text: 'quota exhausted' }], structuredContent: structured, isError: true }));
    const b = await withData.start(op('report'), 'alice');
    expect((await withData.waitForTerminal(b.taskId, 'alice')).statusMessage).toBe('quota exhausted');
    const empty = manager(async () => ({ content: [], isError: true }));
    const c = await empty.start(op('report'), 'alice');
    expect((await empty.waitForTerminal(c.taskId, 'alice')).statusMessage).toBe('The tool reported an error');
  });

  it('cancels a running task: the handler signal aborts and the task stays cancelled', async () => {
    let aborted = false;
    let running = false;
    const m = manager(async (o) => {
      running = true;
      await sleep(60_000, o.signal).catch((e: unknown) => {
        aborted = true;
        throw e;
      });
      return { content: [] };
    });
    const t = await m.start(op('slow'), 'alice');
    await expect.poll(() => running).toBe(true);
    const cancelled = await m.cancel(t.taskId, 'alice');
    expect(cancelled.status).toBe('cancelled');
    await expect.poll(() => aborted).toBe(true);
    expect((await m.get(t.taskId, 'alice')).status).toBe('cancelled');
    // cancelling again is acknowledged, and a finished task stays as it ended
    expect((await m.cancel(t.taskId, 'alice')).status).toBe('cancelled');
  });

  it('reaches only the owner: another caller gets the same error as for an unknown id', async () => {
    const m = manager(async () => ({ content: [] }));
    const t = await m.start(op('report'), 'alice');
    await expect(m.get(t.taskId, 'mallory')).rejects.toMatchObject({ code: -32602 });
    await expect(m.cancel(t.taskId, 'mallory')).rejects.toMatchObject({ code: -32602 });
    await expect(m.get('00000000-0000-4000-8000-000000000000', 'alice')).rejects.toMatchObject({ code: -32602 });
    expect((await m.list('mallory', undefined)).tasks).toHaveLength(0);
    expect((await m.list('alice', undefined)).tasks.map((x) => x.taskId)).toEqual([t.taskId]);
  });

  it('clamps the requested TTL into the configured range', () => {
    const m = manager(async () => ({ content: [] }));
    expect(m.clampTtl(undefined)).toBe(60_000);
    expect(m.clampTtl(10)).toBe(1_000);
    expect(m.clampTtl(10 ** 9)).toBe(3_600_000);
  });

  it('marks a task whose instance vanished (lease expired) as failed', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 10 });
    const dead = await store.create({ taskId: 'a1b2', owner: 'alice', toolName: 'x', arguments: {}, ttlMs: 60_000, pollIntervalMs: 50, leaseOwner: 'gone', leaseMs: 10, now: Date.now() - 1_000 });
    const m = new TaskManager({ store, bus: new InMemoryNotificationBus(), logger: silent, run: async () => ({}), defaultTtlMs: 60_000, minTtlMs: 1_000, maxTtlMs: 3_600_000, pollIntervalMs: 50, leaseMs: 30_000 });
    managers.push(m);
    expect(await m.recoverOrphans()).toBe(1);
    const r = await m.get(dead.taskId, 'alice');
    expect(r.status).toBe('failed');
    expect(r.statusMessage).toMatch(/stopped before it finished/);
  });

  it('re-runs an orphan of an idempotent tool once, as its caller, on the instance that claims it first', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 10 });
    const caller = { subject: 'alice', scopes: ['reports'], groups: [], era: '2026' as const };
    const past = Date.now() - 1_000;
    const orphan = (taskId: string, toolName: string) =>
      store.create({ taskId, owner: 'alice', toolName, arguments: { n: 7 }, ttlMs: 60_000, pollIntervalMs: 50, leaseOwner: 'gone', leaseMs: 10, caller, now: past });
    await orphan('idem', 'report');
    await orphan('once', 'charge_card');
    const seen: Operation[] = [];
    const make = () =>
      new TaskManager({
        store,
        bus: new InMemoryNotificationBus(),
        logger: silent,
        run: async (o) => {
          seen.push(o);
          return { content: [{ type: 'text', text: `report ${String((o.params.arguments as { n: number }).n)}` }] };
        },
        // only `report` may run twice
        rerun: async (r) => (r.toolName === 'report' ? { ...op(r.toolName, r.arguments), ctx: { ...op('x').ctx, auth: { subject: r.caller?.subject ?? '', scopes: r.caller?.scopes ?? [], groups: [], claims: {} } } } : undefined),
        defaultTtlMs: 60_000,
        minTtlMs: 1_000,
        maxTtlMs: 3_600_000,
        pollIntervalMs: 50,
        leaseMs: 30_000,
      });
    const [a, b] = [make(), make()];
    managers.push(a, b);
    // two survivors sweep at once: the idempotent one runs exactly once, the other fails
    const [ra, rb] = await Promise.all([a.recoverOrphans(), b.recoverOrphans()]);
    expect(ra + rb).toBeGreaterThanOrEqual(2);
    const done = await a.waitForTerminal('idem', 'alice');
    expect(done).toMatchObject({ status: 'completed', attempts: 2, result: { content: [{ type: 'text', text: 'report 7' }] } });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.ctx.auth).toMatchObject({ subject: 'alice', scopes: ['reports'] });
    expect(await a.get('once', 'alice')).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('does not re-run a task a second time: after two runs an orphan is failed', async () => {
    const store = new InMemoryTaskStore({ maxTasks: 10 });
    const t = await store.create({ taskId: 'twice', owner: 'alice', toolName: 'report', arguments: {}, ttlMs: 60_000, pollIntervalMs: 50, leaseOwner: 'gone', leaseMs: 10, now: Date.now() - 1_000 });
    await store.update(t.taskId, { attempts: 2, leaseExpiresAt: Date.now() - 500 });
    let runs = 0;
    const m = new TaskManager({
      store,
      bus: new InMemoryNotificationBus(),
      logger: silent,
      run: async () => (runs++, { content: [] }),
      rerun: async (r) => op(r.toolName),
      defaultTtlMs: 60_000,
      minTtlMs: 1_000,
      maxTtlMs: 3_600_000,
      pollIntervalMs: 50,
      leaseMs: 30_000,
    });
    managers.push(m);
    await m.recoverOrphans();
    expect(runs).toBe(0);
    expect((await m.get('twice', 'alice')).status).toBe('failed');
  });

  it('drains on shutdown: quick tasks finish, the rest are marked failed honestly', async () => {
    // quick ends as soon as the drain has begun; slow would outlive any grace time.
    let drainBegun!: () => void;
    const begun = new Promise<void>((resolve) => (drainBegun = resolve));
    const m = manager(async (o) => {
      await (o.params.name === 'quick' ? begun : sleep(60_000, o.signal));
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const quick = await m.start(op('quick'), 'alice');
    const slow = await m.start(op('slow'), 'alice');
    const draining = m.drain(2_000);
    drainBegun();
    const outcome = await draining;
    expect(outcome).toEqual({ finished: 1, handedOver: 0, abandoned: 1 });
    expect((await m.get(quick.taskId, 'alice')).status).toBe('completed');
    const s = await m.get(slow.taskId, 'alice');
    expect(s.status).toBe('failed');
    expect(s.statusMessage).toMatch(/shut down/);
  });
  it('drains with release on a shared store: the leases expire at once and another instance takes the tasks over now', async () => {
    // One store and one bus shared by two instances, as PostgreSQL shares them; leases far longer than the test.
    const store = new InMemoryTaskStore({ maxTasks: 10 });
    const bus = new InMemoryNotificationBus();
    const runsOn: string[] = [];
    const make = (name: string, rerun: boolean) =>
      new TaskManager({
        store,
        bus,
        logger: silent,
        instanceId: name,
        run: async (o) => {
          runsOn.push(name);
          if (name === 'stopping') await sleep(60_000, o.signal);
          return { content: [{ type: 'text', text: `report by ${name}` }] };
        },
        ...(rerun ? { rerun: async (r: { toolName: string }) => (r.toolName === 'report' ? op('report') : undefined) } : {}),
        defaultTtlMs: 60_000,
        minTtlMs: 1_000,
        maxTtlMs: 3_600_000,
        pollIntervalMs: 50,
        leaseMs: 600_000,
      });
    const stopping = make('stopping', true);
    const survivor = make('survivor', true);
    managers.push(stopping, survivor);
    const idempotent = await stopping.start(op('report'), 'alice');
    const once = await stopping.start(op('charge_card'), 'alice');
    await waitForRuns(() => runsOn.length === 2);

    const outcome = await stopping.drain(0, { release: true });
    // The idempotent one is handed over (not lost); the other was interrupted mid-way and may not run twice: failed (lost).
    expect(outcome).toEqual({ finished: 0, handedOver: 1, abandoned: 1 });
    // Taken over long before the 600 s lease would have run out, and the handover is not counted as a crash.
    const rerun = await survivor.waitForTerminal(idempotent.taskId, 'alice');
    expect(rerun).toMatchObject({ status: 'completed', attempts: 2, handovers: 1, leaseOwner: 'survivor', result: { content: [{ type: 'text', text: 'report by survivor' }] } });
    expect(rerun.release).toBeUndefined();
    const failed = await survivor.waitForTerminal(once.taskId, 'alice');
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toBe('Interrupted by a planned stop of instance stopping before it finished; the tool is not idempotent, so it is not run again: call the tool again.');
    expect(runsOn).toEqual(['stopping', 'stopping', 'survivor']); // the stopping instance took nothing back itself
  });
});
