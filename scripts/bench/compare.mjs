#!/usr/bin/env node
// Did a change make calls cheaper? Runs the fa-mcp bench server built from two source trees side by
// side and alternates short load slices between them (A B, B A, ...), so the machine's noise hits
// both alike; prints each slice and, per side, the best req/s and the median and lowest CPU µs per
// call. Processes are pinned as in the bench (lib/pinning.mjs).
//
//   git worktree add /tmp/base HEAD          # the revision to compare against
//   node scripts/bench/compare.mjs --base /tmp/base [--path 2026] [--profile on] [--rounds 8] [--duration 2.5]
//
// --base <repo or packages/fa-mcp-sdk/src of another tree>   --new <the same> (default: this tree)
// --base-env/--new-env KEY=VALUE (repeatable): the server's environment per side; with --base-env and
// no --base both sides run the same build (e.g. --new-env BENCH_SESSIONS_STORE=postgres); one of --base
// and --base-env is required
// --path 2025-json|2025-sse|2026, or a method cell such as '2026 prompts/get'   --profile on|off (the bench's fa-on or fa-off server)
// BENCH_ONLY=ratelimit,auth,metrics,tracing passes through, as for profile.mjs.
import { parseAbArgs } from './lib/ab-args.mjs';
import { buildFaMcpFrom, srcOf } from './lib/build.mjs';
import { runLoad } from './lib/load.mjs';
import { loadFor } from './lib/mcp-http.mjs';
import { pinLoadGenerator, pinningNote } from './lib/pinning.mjs';
import { startServer } from './lib/server-proc.mjs';

const { args, path, sides, connections, title } = parseAbArgs({ rounds: { type: 'string', default: '8' }, duration: { type: 'string', default: '2.5' } }, { single: false });

pinLoadGenerator();
for (const side of sides) side.entry = await buildFaMcpFrom(side.src ? srcOf(side.src) : undefined, side.name);
for (const side of sides) {
  side.proc = await startServer(side.entry, side.env);
  side.load = await loadFor(side.proc, path.era, connections, path.method);
  side.slices = [];
}
console.log(`${title}; ${pinningNote()}`);
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const { load } = side;
      await runLoad({ ...load, durationSec: round === 0 ? 3 : 0.5 }); // JIT warm, connections up
      const cpu0 = side.proc.cpuSeconds();
      const r = await runLoad({ ...load, durationSec: Number(args.duration) });
      if (r.errors > 0) throw new Error(`${side.name}: ${r.errors} failed calls, first: ${r.firstError}`);
      const cpuUs = Math.round(((side.proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
      side.slices.push({ reqPerSec: r.reqPerSec, cpuUs });
      console.log(`round ${round + 1} ${side.name.padEnd(4)} ${String(r.reqPerSec).padStart(6)} req/s  ${String(cpuUs).padStart(4)} us CPU/call`);
    }
  }
} finally {
  await Promise.all(sides.map((s) => s.proc.stop()));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const side of sides) {
  const cpu = side.slices.map((s) => s.cpuUs);
  side.median = median(cpu);
  console.log(`${side.name.padEnd(4)} best ${Math.max(...side.slices.map((s) => s.reqPerSec))} req/s, CPU/call median ${side.median} us, lowest ${Math.min(...cpu)} us`);
}
console.log(`new / base, median CPU per call: ${(sides[1].median / sides[0].median).toFixed(3)}`);
