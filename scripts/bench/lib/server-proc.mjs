// Starts a bench server as a child process (with --expose-gc and an IPC channel), reads its RSS from
// /proc without disturbing it, asks it for GC'd memory figures over IPC, and stops it.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pinnedForkOptions } from './pinning.mjs';

const PAGE = 4096;

/**
 * `wrap`: a command the server runs under instead of the pinning (e.g. ['valgrind', '--tool=callgrind'],
 * instructions.mjs); node is appended to it, the IPC channel passes through. `nodeFlags`: more flags for node.
 */
export async function startServer(entry, env = {}, { timeoutMs = 120_000, wrap, nodeFlags = [] } = {}) {
  const { execArgvPrefix, ...pinned } = wrap ? { execPath: wrap[0], execArgvPrefix: [...wrap.slice(1), process.execPath] } : pinnedForkOptions();
  const child = fork(entry, [], {
    ...pinned,
    execArgv: [...execArgvPrefix, '--expose-gc', ...nodeFlags, ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    // SHUTDOWN_DRAIN_MS=0: nothing balances a bench server, stop() should not wait out a drain window.
    env: { PATH: process.env.PATH, NODE_ENV: 'production', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
    child.on('message', (msg) => {
      if (msg?.type === 'ready') {
        clearTimeout(timer);
        resolve(msg);
      }
    });
  });
  let probeId = 0;
  return {
    ...ready,
    pid: child.pid,
    /** Resident set size now, in bytes, read from /proc (no work for the server). */
    rss() {
      try {
        const pages = Number(readFileSync(`/proc/${child.pid}/statm`, 'utf8').split(' ')[1]);
        return pages * PAGE;
      } catch {
        return NaN;
      }
    },
    /** CPU time (user + system) the server used so far, in seconds. */
    cpuSeconds() {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return NaN;
      }
    },
    /** process.memoryUsage() of the server, after a full GC when `gc` is true. */
    memory(gc = true) {
      const id = ++probeId;
      return new Promise((resolve) => {
        const onMessage = (msg) => {
          if (msg?.type === 'memory' && msg.id === id) {
            child.off('message', onMessage);
            resolve(msg);
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'memory', id, gc });
      });
    },
    /** Writes a heap snapshot of the server to `path` after a full GC (idle-heap.mjs); resolves with the file. */
    snapshot(path) {
      const id = ++probeId;
      return new Promise((resolve) => {
        const onMessage = (msg) => {
          if (msg?.type === 'snapshot' && msg.id === id) {
            child.off('message', onMessage);
            resolve(msg.file);
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'snapshot', id, path });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Samples `read()` every `everyMs` until stopped; returns the peak. */
export function samplePeak(read, everyMs = 200) {
  let peak = read();
  const timer = setInterval(() => {
    const v = read();
    if (v > peak) peak = v;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(peak, read());
  };
}
