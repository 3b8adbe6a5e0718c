#!/usr/bin/env node
// Did a change make calls cheaper, counted in instructions rather than CPU time? CPU time per call
// moves ±10–20% between identical runs on a shared machine; the number of instructions a server
// executes per call hardly moves with how busy the machine is. Runs the fa-mcp bench server (built
// as compare.mjs builds it) under valgrind's callgrind, sends warm-up calls with the bench's own load
// code, zeroes the counters (callgrind_control -z), sends N calls, dumps the counters
// (callgrind_control -d) and prints instructions per call: the program's own work (all instructions
// less those of V8's compilers and garbage collector), the collector's, the compilers' and all.
// Windows alternate between the sides (A B, B A, ...); each side keeps one server for all its windows.
//
//   node scripts/bench/instructions.mjs [--base <tree>] [--new <tree>] [--path 2025-sse] [--profile on]
//        [--warmup 5000] [--calls 1000] [--rounds 3] [--connections 32] [--pin] [--keep]
//        [--node-flags='--single-threaded --interrupt-budget=8192']
//
// --base/--new: a repository root or its packages/fa-mcp-sdk/src (default --new: this tree; without
// --base and --base-env only the new side is measured). --base-env/--new-env KEY=VALUE (repeatable):
// the server's environment per side, as for compare.mjs. --path, --profile and BENCH_ONLY as for compare.mjs. --pin
// runs the valgrind'd servers on CPU 0 (off by default: the count does not depend on it). --keep
// leaves the dumps for callgrind_annotate. Needs valgrind (callgrind_control) on PATH.
//
// The node flags: --single-threaded keeps V8's background work (optimizing compiles, concurrent
// marking) on the main thread, where it is counted and told apart by function name (lib/callgrind-
// dump.mjs); --interrupt-budget=8192 makes functions reach optimized code after fewer calls, as a
// server under valgrind runs ~30-50x slower and a native-length warm-up would take many minutes.
//
// What it counts: user-space instructions (Ir) of the server process, JIT-compiled code included.
// What it does not: cache misses and branch mispredictions (--cache-sim=no), time in the kernel
// (syscalls: reads, writes, epoll), waiting, and the work of V8's helper threads in a normal run
// (here done on the main thread). Timers fire relatively more often per call than at full speed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAbArgs } from './lib/ab-args.mjs';
import { buildFaMcpFrom, srcOf } from './lib/build.mjs';
import { readCallgrindDump } from './lib/callgrind-dump.mjs';
import { runLoad } from './lib/load.mjs';
import { loadFor } from './lib/mcp-http.mjs';
import { startServer } from './lib/server-proc.mjs';

// Interrupted: exit normally, so the exit handlers remove the builds and the callgrind files.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const { args, path, sides: sideSpecs, connections, title } = parseAbArgs(
  {
    warmup: { type: 'string', default: '5000' },
    calls: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    pin: { type: 'boolean', default: false },
    /** Keeps the callgrind dumps (their folder is printed) for callgrind_annotate. */
    keep: { type: 'boolean', default: false },
    /** V8 flags for the measured server; '' for none. */
    'node-flags': { type: 'string', default: '--single-threaded --interrupt-budget=8192' },
  },
  { single: true },
);
const calls = Number(args.calls);

/**
 * Counts of one dump, summed over its per-thread files `cg.out.<n>-<tid>` (with --single-threaded the
 * main thread does nearly all): all instructions, those in V8's compilers and in its garbage collector.
 */
function readDump(outDir, n) {
  const files = readdirSync(outDir).filter((f) => f.startsWith(`cg.out.${n}-`));
  if (files.length === 0) throw new Error(`no callgrind dump ${n} in ${outDir}`);
  const sum = { total: 0, compile: 0, gc: 0 };
  for (const f of files) {
    const counts = readCallgrindDump(readFileSync(join(outDir, f), 'utf8'));
    sum.total += counts.total;
    sum.compile += counts.compile;
    sum.gc += counts.gc;
  }
  return sum;
}

const control = (pid, flag) => execFileSync('callgrind_control', [flag, String(pid)], { stdio: 'pipe' });

async function startSide({ name, src, env: sideEnv }) {
  const entry = await buildFaMcpFrom(src, name);
  const outDir = mkdtempSync(join(tmpdir(), `fa-mcp-callgrind-${name}-`));
  if (args.keep) console.log(`${name}: callgrind dumps in ${outDir}`);
  else process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  const valgrind = ['valgrind', '--tool=callgrind', '--cache-sim=no', '--separate-threads=yes', `--callgrind-out-file=${join(outDir, 'cg.out')}`, '--log-file=/dev/null'];
  const wrap = args.pin ? ['taskset', '-c', '0', ...valgrind] : valgrind;
  const env = { ...sideEnv, BENCH_SLOW_SERVER: '1' };
  const nodeFlags = args['node-flags'].split(' ').filter(Boolean);
  const proc = await startServer(entry, env, { timeoutMs: 1_800_000, wrap, nodeFlags });
  const load = await loadFor(proc, path.era, connections, path.method);
  return { name, proc, load, outDir, dumps: 0, windows: [] };
}

async function measure(side, warmup) {
  const check = (r) => {
    if (r.errors > 0) throw new Error(`${side.name}: ${r.errors} failed calls, first: ${r.firstError}`);
    return r;
  };
  if (warmup > 0) check(await runLoad({ ...side.load, amount: warmup }));
  control(side.proc.pid, '-z');
  const r = check(await runLoad({ ...side.load, amount: calls }));
  control(side.proc.pid, '-d');
  const counts = readDump(side.outDir, ++side.dumps);
  const per = (x) => Math.round(x / r.requests);
  const window = { total: per(counts.total), compile: per(counts.compile), gc: per(counts.gc), reqPerSec: r.reqPerSec };
  window.own = window.total - window.compile - window.gc;
  side.windows.push(window);
  return window;
}

const pad = (x, n = 8) => String(x).padStart(n);
const sides = [];
try {
  for (const spec of sideSpecs) sides.push(await startSide({ ...spec, src: spec.src ? srcOf(spec.src) : undefined }));
  console.log(`${title}; callgrind, node ${args['node-flags'] || '(no flags)'}, ${calls} calls per window, ${connections} connections`);
  console.log('instructions per call:      own work  (= all - JIT compilers - GC)       GC   compilers      all');
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const w = await measure(side, round === 0 ? Number(args.warmup) : Math.ceil(calls / 4));
      console.log(`round ${pad(round + 1, 2)} ${side.name.padEnd(4)}          ${pad(w.own)}                                ${pad(w.gc)}  ${pad(w.compile, 10)} ${pad(w.total)}   (${w.reqPerSec} req/s under valgrind)`);
    }
  }
} finally {
  await Promise.all(sides.map((s) => s.proc.stop()));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const side of sides) {
  const own = side.windows.map((w) => w.own);
  side.median = median(own);
  const spread = ((Math.max(...own) - Math.min(...own)) / side.median) * 100;
  console.log(`${side.name.padEnd(4)} own work median ${side.median} instructions/call (windows spread ${spread.toFixed(1)}%); with GC ${median(side.windows.map((w) => w.own + w.gc))}; all ${median(side.windows.map((w) => w.total))}`);
}
if (sides.length === 2) {
  const ratio = (key) => (median(sides[1].windows.map(key)) / median(sides[0].windows.map(key))).toFixed(3);
  console.log(`new / base, median instructions per call: own work ${ratio((w) => w.own)}, with GC ${ratio((w) => w.own + w.gc)}`);
}
