/**
 * A planned stop (SIGTERM) of a server process on a shared PostgreSQL task
 * store: a task of an idempotent tool still running after the grace is handed
 * over, the process exits 0, and another instance runs it again at once (the
 * leases here last 10 minutes: waiting for one to run out would time out);
 * a second planned stop hands it over again and it still completes. A task of
 * a tool that may not run twice is failed, saying a planned stop interrupted
 * it, and the process exits 1 (work was lost). A crash (kill -9) after a
 * handover still counts: one is re-run, a second fails the task.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertSdkBuildIsCurrent } from '../../../../scripts/test-kit/sdk-build.mjs';
import { createTestSchema, type TestSchema } from './pg-test-db.js';
import { AnyResult, createTask, getTask, start, startedOn, stop, stopAll, until } from './task-instances.js';

const LONG_LEASE = { FIXTURE_LEASE_MS: '600000' };
let db: TestSchema;
let gates: string;

beforeAll(async () => {
  assertSdkBuildIsCurrent();
  db = await createTestSchema('tasks_planned');
  gates = mkdtempSync(join(tmpdir(), 'fa-mcp-gates-'));
}, 30_000);
afterAll(async () => {
  await stopAll();
  await db?.drop();
  if (gates) rmSync(gates, { recursive: true, force: true });
}, 30_000);

const row = async (taskId: string) =>
  (await db.pool.query<{ status: string; attempts: number; handovers: number; lease_release: unknown }>('SELECT status, attempts, handovers, lease_release FROM fa_mcp_tasks WHERE task_id = $1', [taskId])).rows[0];

it('SIGTERM with a long idempotent task: exit 0, taken over at once by another instance, handed over again by a second SIGTERM, and completed', async () => {
  const gate = join(gates, 'idempotent');
  const a = await start(db.url, LONG_LEASE);
  const b = await start(db.url, LONG_LEASE);
  const task = await createTask(a, 'idempotent_job', { gate, n: 21 });
  expect(await until(() => startedOn(a, 21), 10_000)).toBe(true);

  // The task outlives the grace (its gate is closed): handed over, not abandoned.
  expect(await stop(a)).toBe(0);
  expect(await until(() => startedOn(b, 21), 15_000)).toBe(true);
  expect(await row(task.taskId)).toMatchObject({ status: 'working', attempts: 2, handovers: 1, lease_release: null });

  // A second planned stop during the re-run: handed over again (two runs started already, none lost to a crash).
  const c = await start(db.url, LONG_LEASE);
  expect(await stop(b)).toBe(0);
  expect(await until(() => startedOn(c, 21), 15_000)).toBe(true);
  expect((await getTask(c, task.taskId)).statusMessage).toMatch(/planned stop/);

  writeFileSync(gate, 'open');
  const result = await c.client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult);
  expect(result.structuredContent).toEqual({ done: 21, pid: c.child.pid });
  expect(await row(task.taskId)).toMatchObject({ status: 'completed', attempts: 3, handovers: 2 });
  expect(await stop(c)).toBe(0);
}, 120_000);

it('SIGTERM with a long task of a tool that may not run twice: failed as interrupted by the planned stop, exit 1', async () => {
  const a = await start(db.url, LONG_LEASE);
  const b = await start(db.url, LONG_LEASE);
  const task = await createTask(a, 'long_job', { gate: join(gates, 'never'), n: 22 });
  expect(await until(() => startedOn(a, 22), 10_000)).toBe(true);
  expect(await stop(a)).toBe(1);
  const failed = await getTask(b, task.taskId);
  expect(failed.status).toBe('failed');
  expect(failed.statusMessage).toMatch(/^Interrupted by a planned stop of instance [0-9a-f-]{36} before it finished; the tool is not idempotent/);
  expect(a.out).toContain('ABORTED 22');
  expect(startedOn(b, 22)).toBe(false);
  expect(await stop(b)).toBe(0);
}, 120_000);

it('a crash after a planned handover still counts: the first crash is re-run, the second fails the task', async () => {
  // Short leases here: a crash is found only when its lease runs out.
  const a = await start(db.url);
  const b = await start(db.url);
  const task = await createTask(a, 'idempotent_job', { gate: join(gates, 'never'), n: 23 });
  expect(await until(() => startedOn(a, 23), 10_000)).toBe(true);
  expect(await stop(a)).toBe(0);
  expect(await until(() => startedOn(b, 23), 15_000)).toBe(true);

  const c = await start(db.url);
  await stop(b, 'SIGKILL');
  expect(await until(() => startedOn(c, 23), 20_000)).toBe(true);
  expect(await row(task.taskId)).toMatchObject({ status: 'working', attempts: 3, handovers: 1 });

  const d = await start(db.url);
  await stop(c, 'SIGKILL');
  expect(await until(async () => (await getTask(d, task.taskId)).status === 'failed', 20_000)).toBe(true);
  expect((await getTask(d, task.taskId)).statusMessage).toMatch(/stopped before it finished/);
  expect(startedOn(d, 23)).toBe(false);
  expect(await row(task.taskId)).toMatchObject({ status: 'failed', attempts: 3, handovers: 1 });
  await stop(d);
}, 120_000);
