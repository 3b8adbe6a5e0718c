/**
 * Server processes for the multi-instance task tests: each runs
 * fixtures/task-server.mjs (the built library) on one PostgreSQL schema, with
 * an SDK client connected to it. start() waits for its URL; stop() sends a
 * signal and resolves with the exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What the instance's client declares (the client's own options type). */
type ClientCapabilities = NonNullable<NonNullable<ConstructorParameters<typeof Client>[1]>['capabilities']>;

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'task-server.mjs');
export const Task = z.object({ taskId: z.string(), status: z.string(), statusMessage: z.string().optional() }).passthrough();
export const Created = z.object({ task: Task }).passthrough();
export const AnyResult = z.record(z.string(), z.unknown());
export const TaskList = z.object({ tasks: z.array(Task), nextCursor: z.string().optional() }).passthrough();

export interface Instance {
  child: ChildProcess;
  url: string;
  /** Its stdout lines so far (`STARTED <n> <pid>`, `ABORTED <n>`). */
  out: string[];
  err: () => string;
  client: Client;
  /** The exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
}

const running: Instance[] = [];

/** Starts one instance on the database at `dbUrl`; `env` adds to the fixture's environment (FIXTURE_LEASE_MS...); `capabilities`: what its client declares. */
export async function start(dbUrl: string, env: Record<string, string> = {}, capabilities: ClientCapabilities = {}): Promise<Instance> {
  const child = spawn(process.execPath, [fixture], { env: { ...process.env, DB_MAIN_URL: dbUrl, NODE_ENV: 'test', SHUTDOWN_DRAIN_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  let err = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start: ${err.slice(-2000)}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        out.push(line);
        if (line.startsWith('{')) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      }
    });
    void exited.then((code) => reject(new Error(`instance exited with ${code}: ${err.slice(-2000)}`)));
  });
  const client = new Client({ name: 'tasks-test', version: '1' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const inst: Instance = { child, url, out, client, err: () => err, exited };
  running.push(inst);
  return inst;
}

/** Sends `signal` (closing the client first for SIGTERM) and resolves with the exit code once the process is gone. */
export async function stop(inst: Instance, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  if (signal === 'SIGTERM') await inst.client.close().catch(() => undefined);
  inst.child.kill(signal);
  const code = await inst.exited;
  running.splice(running.indexOf(inst), 1);
  if (signal !== 'SIGKILL' && code !== 0) console.error(`instance exited with ${code}:\n${inst.err().slice(-3000)}`);
  return code;
}

/** SIGKILLs every instance still running (afterAll). */
export async function stopAll(): Promise<void> {
  for (const i of [...running]) await stop(i, 'SIGKILL').catch(() => undefined);
}

/** Starts `tool` as a task on `i`; resolves with the created task. */
export const createTask = (i: Instance, tool: string, args: Record<string, unknown>) =>
  i.client.request({ method: 'tools/call', params: { name: tool, arguments: args, task: {} } }, Created).then((r) => r.task);
export const getTask = (i: Instance, taskId: string) => i.client.request({ method: 'tasks/get', params: { taskId } }, Task);

/** True once `pred` holds, false when `ms` passed first (a deadline, checked every 100 ms). */
export async function until(pred: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** True once `i` printed that the handler of job `n` started. */
export const startedOn = (i: Instance, n: number) => i.out.some((l) => l.startsWith(`STARTED ${n} `));
