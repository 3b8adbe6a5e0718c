// CPU pinning: every server under test runs on CPU 0 alone (all its threads, from its first
// instruction), and the load generator (the bench process) on the other CPUs. Without it the load
// generator and the server share both cores of a small machine, and a server's figures move with
// where the scheduler happens to put the two (±30% between identical runs on a 2-core VM; pinned,
// a few percent). Linux with `taskset` and at least 2 CPUs; BENCH_PIN=off turns it off.
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const SERVER_CPU = '0';

function plan() {
  if (process.env.BENCH_PIN === 'off' || process.platform !== 'linux') return undefined;
  const n = availableParallelism();
  if (n < 2 || spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  return { serverCpu: SERVER_CPU, benchCpus: n === 2 ? '1' : `1-${n - 1}` };
}

export const PINNING = plan();

/** Moves this process (the load generator, every thread of it) off the servers' CPU. */
export function pinLoadGenerator() {
  if (PINNING) execFileSync('taskset', ['-a', '-cp', PINNING.benchCpus, String(process.pid)], { stdio: 'ignore' });
}

/** `fork` options that start a server on its CPU (taskset execs node, the IPC channel passes through). */
export function pinnedForkOptions() {
  return PINNING ? { execPath: 'taskset', execArgvPrefix: ['-c', PINNING.serverCpu, process.execPath] } : { execArgvPrefix: [] };
}

/** What the results say about pinning. */
export function pinningNote() {
  return PINNING ? `each server pinned to CPU ${PINNING.serverCpu}, the load generator to CPU ${PINNING.benchCpus}` : 'not pinned';
}
