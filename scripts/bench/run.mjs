#!/usr/bin/env node
// The benchmark (`npm run bench`): in one run on loopback, tools/call throughput, p50/p99 latency and
// server RSS for the bare official SDK v2, fa-mcp-sdk with nothing enabled and fa-mcp-sdk with
// everything on, each on 2025-11-25 sessions (JSON and SSE responses) and on 2026-07-28; then the
// memory of 1,000 idle sessions and RSS across 100,000 calls. Writes results.json, results.md and the
// table of FA-MCP-SDK-DOC/07-testing-and-operations.md (between the bench markers).
//
// Options: --duration <s> (per cell, default 5)  --rounds <n> (default 3, best kept)
//          --connections <n> (default 32)  --sessions <n> (idle-session test, default 1000)
//          --soak <calls> (default 100000)  --soak-max-sec <s> (default 120: a slow machine sends fewer)
//          --quick (1 round of 2 s, 200 sessions, 10,000 calls)
//          --no-docs (do not touch the docs page)  --strict (exit 1 when a target is missed)
// Each server runs on a CPU of its own, the load generator on the others (lib/pinning.mjs;
// BENCH_PIN=off to share the CPUs).
import { cpus, loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { runLoad } from './lib/load.mjs';
import { checkCall, openSessions } from './lib/mcp-http.mjs';
import { idleSessionCost, soak } from './lib/memory.mjs';
import { DOC_PAGE, RESULTS_FILE, TABLE_FILE } from './lib/paths.mjs';
import { pinLoadGenerator, pinningNote } from './lib/pinning.mjs';
import { embedInPage, evaluate, printSummary, renderMarkdown } from './lib/report.mjs';
import { PATHS, SERVERS } from './lib/scenarios.mjs';
import { samplePeak, startServer } from './lib/server-proc.mjs';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    sessions: { type: 'string' },
    soak: { type: 'string' },
    'soak-max-sec': { type: 'string', default: '120' },
    quick: { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
  },
});
const quick = args.quick;
const opts = {
  durationSec: Number(args.duration ?? (quick ? 2 : 5)),
  rounds: Number(args.rounds ?? (quick ? 1 : 3)),
  connections: Number(args.connections),
  idleSessions: Number(args.sessions ?? (quick ? 200 : 1000)),
  soakCalls: Number(args.soak ?? (quick ? 10_000 : 100_000)),
  soakMaxSec: Number(args['soak-max-sec']),
};
const log = (...a) => console.log(...a);
const started = Date.now();
const loadAvgAtStart = loadavg().map((n) => Number(n.toFixed(2)));
if (loadAvgAtStart[0] > cpus().length) {
  log(`note: load average ${loadAvgAtStart[0]} on ${cpus().length} CPUs; other work competes with the bench, so absolute figures will be low`);
}

pinLoadGenerator();
log(`CPU pinning: ${pinningNote()}`);
log(`building the bench servers from the current sources...`);
const entries = await buildBenchServers();

// --- throughput: every server process up at once, cells interleaved, best of N rounds ---------------
const processes = new Map(); // `${server}/${responseMode}` -> running server
let features = { on: [], absent: [] };
for (const server of SERVERS) {
  for (const mode of ['json', 'sse']) {
    const proc = await startServer(entries[server.entry], { ...server.env, BENCH_RESPONSE_MODE: mode });
    if (server.id === 'fa-on') features = { on: proc.features ?? [], absent: proc.absent ?? [] };
    proc.headers ??= {};
    proc.sessions = await openSessions(proc.url, opts.connections, proc.headers);
    await checkCall(proc.url, '2025', proc.sessions[0], proc.headers);
    if (mode === 'json') await checkCall(proc.url, '2026', undefined, proc.headers);
    processes.set(`${server.id}/${mode}`, proc);
  }
}
log(`servers up; "everything on" = ${features.on.join(', ')}${features.absent.length ? `; not available: ${features.absent.join(', ')}` : ''}`);

const best = new Map();
for (let round = 1; round <= opts.rounds; round++) {
  for (const path of PATHS) {
    for (const server of SERVERS) {
      const proc = processes.get(`${server.id}/${path.responseMode}`);
      const load = { url: proc.url, era: path.era, sessions: proc.sessions, headers: proc.headers, connections: opts.connections };
      await runLoad({ ...load, durationSec: 1 }); // warm-up
      const peak = samplePeak(() => proc.rss());
      const cpu0 = proc.cpuSeconds();
      const r = await runLoad({ ...load, durationSec: opts.durationSec });
      // Server CPU time per call: less sensitive than req/s to other load on the machine.
      r.cpuUsPerCall = Math.round(((proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
      const rssPeakMB = Number((peak() / 1e6).toFixed(1));
      if (r.errors > 0) throw new Error(`${server.id} on ${path.id}: ${r.errors} failed calls, first: ${r.firstError}`);
      const key = `${server.id}/${path.id}`;
      const prev = best.get(key);
      log(`round ${round} ${path.id.padEnd(9)} ${server.id.padEnd(6)} ${String(r.reqPerSec).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu ${r.cpuUsPerCall} us/call`);
      const cpuUsPerCall = Math.min(r.cpuUsPerCall, prev?.cpuUsPerCall ?? Infinity);
      if (!prev || r.reqPerSec > prev.reqPerSec) best.set(key, { server: server.id, path: path.id, ...r, cpuUsPerCall, rssPeakMB: Math.max(rssPeakMB, prev?.rssPeakMB ?? 0) });
      else Object.assign(prev, { cpuUsPerCall, rssPeakMB: Math.max(prev.rssPeakMB, rssPeakMB) });
    }
  }
}
await Promise.all([...processes.values()].map((p) => p.stop()));

// --- memory: idle sessions, then a long run -------------------------------------------------------------
const idleSessions = [];
for (const server of SERVERS) {
  const proc = await startServer(entries[server.entry], { ...server.env, BENCH_RESPONSE_MODE: 'json' });
  try {
    idleSessions.push({ server: server.id, ...(await idleSessionCost(proc, opts.idleSessions)) });
  } finally {
    await proc.stop();
  }
}
log(`idle sessions measured (${opts.idleSessions} per server)`);

const soaks = [];
for (const server of SERVERS.filter((s) => s.id === 'fa-on')) {
  const proc = await startServer(entries[server.entry], { ...server.env, BENCH_RESPONSE_MODE: 'json' });
  try {
    const sessions = await openSessions(proc.url, opts.connections, proc.headers ?? {});
    await runLoad({ url: proc.url, era: '2025', sessions, headers: proc.headers ?? {}, connections: opts.connections, amount: 5_000 }); // settle JIT and pools
    const common = { connections: opts.connections, maxSec: opts.soakMaxSec };
    soaks.push({ server: server.id, ...(await soak(proc, { era: '2025', sessions, calls: opts.soakCalls, ...common })) });
    soaks.push({ server: server.id, ...(await soak(proc, { era: '2026', calls: Math.round(opts.soakCalls / 4), ...common, maxSec: opts.soakMaxSec / 2 })) });
  } finally {
    await proc.stop();
  }
}
log('soak done');

const results = evaluate({
  env: {
    date: new Date().toISOString(),
    node: process.versions.node,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model?.trim() ?? 'unknown CPU',
    loadAvgAtStart,
    loadAvgAtEnd: loadavg().map((n) => Number(n.toFixed(2))),
    connections: opts.connections,
    durationSec: opts.durationSec,
    rounds: opts.rounds,
    pinning: pinningNote(),
    totalSec: 0,
  },
  features,
  throughput: [...best.values()],
  idleSessions,
  soak: soaks,
});
results.env.totalSec = Math.round((Date.now() - started) / 1000);
const markdown = renderMarkdown(results);
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(TABLE_FILE, markdown);
if (!args['no-docs']) {
  if (embedInPage(DOC_PAGE, markdown)) log(`updated ${DOC_PAGE}`);
  else log(`${DOC_PAGE} has no bench markers; the table is in ${TABLE_FILE}`);
}
printSummary(results, log);
log(`\nwrote ${RESULTS_FILE} and ${TABLE_FILE} in ${results.env.totalSec} s`);
if (args.strict && results.targets.some((t) => !t.met)) process.exitCode = 1;
