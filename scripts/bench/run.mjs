#!/usr/bin/env node
// The benchmark (`npm run bench`): in one run on loopback, throughput, p50/p99 latency and server CPU
// per call of fa-mcp-sdk (nothing enabled, and everything on), the peers users would pick instead
// (official SDK v2, SDK v1, fastmcp; pinned in scripts/bench/peers) and a floor with no MCP code
// (node:http + JSON): `tools/call` on 2025-11-25 sessions (JSON and SSE responses) and on
// 2026-07-28, and prompts/get, resources/read and completion/complete on both eras; MCP Events from emit
// to delivery on poll, push and webhook (lib/events-cost.mjs; also `node scripts/bench/events.mjs`); then the memory
// of 1,000 idle sessions of every server, RSS across 100,000 calls, RSS per examples/demo tool under
// sustained load (lib/tool-rss.mjs; also `node scripts/bench/rss-per-tool.mjs`), and cold start (import
// time, first tools/list over stdio). Writes results.json, results.md, results.svg (the chart) and the section of
// FA-MCP-SDK-DOC/07-testing-and-operations.md between the bench markers (with the chart beside it).
//
// Options: --duration <s> (per cell, default 5)  --rounds <n> (default 3, best kept)
//          --connections <n> (default 32)  --sessions <n> (idle-session test, default 1000)
//          --soak <calls> (default 100000)  --soak-max-sec <s> (default 120: a slow machine sends fewer)
//          --cold-runs <n> (default 10)  --no-methods (tools/call only)  --no-cold (no cold start)
//          --quick (1 round of 2 s, 200 sessions, 10,000 calls, 3 cold runs, shorter events phases)
//          --no-docs (do not touch the docs page)  --strict (exit 1 when a target is missed)
//          --no-sessions-store (skip the postgres session store against memory; BENCH_DB_URL names the database)
//          --no-audit (skip what the audit trail costs: everything on with and without it; BENCH_DB_URL too)
//          --no-events (skip MCP Events: emit → delivery latency and delivered/s on poll, push and webhook;
//          alone: node scripts/bench/events.mjs)
//          --tool-rss-calls <n> (calls per demo tool after its warm-up, default 30000; --quick 10000)
//          --no-tool-rss (skip RSS per demo tool)
// Each server runs on a CPU of its own, the load generator on the others (lib/pinning.mjs;
// BENCH_PIN=off to share the CPUs).
import { cpus, loadavg } from 'node:os';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { renderChart } from './lib/chart.mjs';
import { coldStart } from './lib/cold-start.mjs';
import { ensurePeers } from './lib/peers.mjs';
import { LOAD_CLIENT, runLoad } from './lib/load.mjs';
import { checkCall, openSessions } from './lib/mcp-http.mjs';
import { idleSessionCost, soak } from './lib/memory.mjs';
import { measureDemoToolsRss } from './lib/tool-rss.mjs';
import { ensureDemoDist } from '../cluster/cluster.mjs';
import { BENCH_DIR, CHART_DOC_FILE, CHART_FILE, DOC_PAGE, RESULTS_FILE, TABLE_FILE } from './lib/paths.mjs';
import { pinLoadGenerator, pinningNote } from './lib/pinning.mjs';
import { embedInPage, evaluate, printSummary, renderMarkdown } from './lib/report.mjs';
import { METHOD_CELLS, PATHS, SERVERS, speaks } from './lib/scenarios.mjs';
import { samplePeak, startServer } from './lib/server-proc.mjs';
import { assertSessionsStoreDb, measureSessionsStore } from './lib/sessions-store.mjs';
import { measureAuditCost } from './lib/audit-cost.mjs';
import { EVENTS_QUICK, measureEventsCost } from './lib/events-cost.mjs';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    sessions: { type: 'string' },
    soak: { type: 'string' },
    'soak-max-sec': { type: 'string', default: '120' },
    'cold-runs': { type: 'string' },
    'no-methods': { type: 'boolean', default: false },
    'no-cold': { type: 'boolean', default: false },
    'no-sessions-store': { type: 'boolean', default: false },
    'no-audit': { type: 'boolean', default: false },
    'no-events': { type: 'boolean', default: false },
    'no-tool-rss': { type: 'boolean', default: false },
    'tool-rss-calls': { type: 'string' },
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
  coldRuns: Number(args['cold-runs'] ?? (quick ? 3 : 10)),
  toolRssCalls: Number(args['tool-rss-calls'] ?? (quick ? 10_000 : 30_000)),
};
const CELLS = [...PATHS, ...(args['no-methods'] ? [] : METHOD_CELLS)];
const log = (...a) => console.log(...a);
const started = Date.now();
const loadAvgAtStart = loadavg().map((n) => Number(n.toFixed(2)));
if (loadAvgAtStart[0] > cpus().length) {
  log(`note: load average ${loadAvgAtStart[0]} on ${cpus().length} CPUs; other work competes with the bench, so absolute figures will be low`);
}

if (!args['no-sessions-store'] || !args['no-audit']) {
  try {
    await assertSessionsStoreDb();
  } catch (err) {
    console.error(`bench: ${err.message}`);
    process.exit(2);
  }
}
pinLoadGenerator();
log(`CPU pinning: ${pinningNote()}`);
ensurePeers(log);
log(`building the bench servers from the current sources...`);
const bundled = await buildBenchServers();
const entryOf = (server) => (server.entry ? bundled[server.entry] : join(BENCH_DIR, server.file));

// --- throughput: every server process up at once, cells interleaved, best of N rounds ---------------
const processes = new Map(); // `${server}/${responseMode}` -> running server
let features = { on: [], absent: [] };
for (const server of SERVERS) {
  for (const mode of ['json', 'sse']) {
    const cells = CELLS.filter((c) => c.responseMode === mode && speaks(server, c));
    if (cells.length === 0) continue;
    const proc = await startServer(entryOf(server), { ...server.env, BENCH_RESPONSE_MODE: mode });
    if (server.id === 'fa-on') features = { on: proc.features ?? [], absent: proc.absent ?? [] };
    proc.headers ??= {};
    proc.sessions = server.eras.includes('2025') ? await openSessions(proc.url, opts.connections, proc.headers) : [];
    for (const cell of cells) await checkCall(proc.url, cell.era, proc.sessions[0], proc.headers, cell.method);
    processes.set(`${server.id}/${mode}`, proc);
  }
}
log(`servers up; "everything on" = ${features.on.join(', ')}${features.absent.length ? `; not available: ${features.absent.join(', ')}` : ''}`);

const best = new Map();
for (let round = 1; round <= opts.rounds; round++) {
  for (const cell of CELLS) {
    for (const server of SERVERS.filter((s) => speaks(s, cell))) {
      const proc = processes.get(`${server.id}/${cell.responseMode}`);
      const load = { url: proc.url, era: cell.era, method: cell.method, sessions: proc.sessions, headers: proc.headers, connections: opts.connections };
      await runLoad({ ...load, durationSec: 1 }); // warm-up
      const peak = samplePeak(() => proc.rss());
      const cpu0 = proc.cpuSeconds();
      const r = await runLoad({ ...load, durationSec: opts.durationSec });
      // Server CPU time per call: less sensitive than req/s to other load on the machine.
      r.cpuUsPerCall = Math.round(((proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
      const rssPeakMB = Number((peak() / 1e6).toFixed(1));
      if (r.errors > 0) throw new Error(`${server.id} on ${cell.id}: ${r.errors} failed calls, first: ${r.firstError}`);
      const key = `${server.id}/${cell.id}`;
      const prev = best.get(key);
      log(`round ${round} ${cell.id.padEnd(30)} ${server.id.padEnd(7)} ${String(r.reqPerSec).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu ${r.cpuUsPerCall} us/call`);
      const cpuUsPerCall = Math.min(r.cpuUsPerCall, prev?.cpuUsPerCall ?? Infinity);
      if (!prev || r.reqPerSec > prev.reqPerSec) best.set(key, { server: server.id, path: cell.id, method: cell.method, ...r, cpuUsPerCall, rssPeakMB: Math.max(rssPeakMB, prev?.rssPeakMB ?? 0) });
      else Object.assign(prev, { cpuUsPerCall, rssPeakMB: Math.max(prev.rssPeakMB, rssPeakMB) });
    }
  }
}
await Promise.all([...processes.values()].map((p) => p.stop()));

// --- 2025-era sessions in PostgreSQL against memory (mcp.sessions.store) ------------------------------
const sessionsStore = args['no-sessions-store']
  ? undefined
  : await measureSessionsStore({ entry: bundled['fa-mcp'], durationSec: opts.durationSec, rounds: opts.rounds, connections: opts.connections, log });

// --- the audit trail (mcp.audit): everything on, with and without it ----------------------------------
const auditCost = args['no-audit']
  ? undefined
  : await measureAuditCost({ entry: bundled['fa-mcp'], durationSec: opts.durationSec, rounds: opts.rounds, connections: opts.connections, log });

// --- MCP Events (mcp.events): emit → delivery latency and delivered/s, per delivery mode ----------------
const eventsCost = args['no-events'] ? undefined : await measureEventsCost({ entry: bundled['fa-mcp'], log, ...(quick ? EVENTS_QUICK : {}) });

// --- memory: idle sessions, then a long run -------------------------------------------------------------
const idleSessions = [];
for (const server of SERVERS.filter((s) => s.eras.includes('2025'))) {
  const proc = await startServer(entryOf(server), { ...server.env, BENCH_RESPONSE_MODE: 'json' });
  try {
    idleSessions.push({ server: server.id, ...(await idleSessionCost(proc, opts.idleSessions)) });
  } finally {
    await proc.stop();
  }
}
log(`idle sessions measured (${opts.idleSessions} per server)`);

const soaks = [];
for (const server of SERVERS.filter((s) => s.id === 'fa-on')) {
  const proc = await startServer(entryOf(server), { ...server.env, BENCH_RESPONSE_MODE: 'json' });
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

// --- RSS per examples/demo tool: a fresh demo process per tool, warmed up, then called at length -------
let toolRss;
if (!args['no-tool-rss']) {
  log('RSS per examples/demo tool ...');
  toolRss = await measureDemoToolsRss(ensureDemoDist(log), { calls: opts.toolRssCalls, seconds: quick ? 8 : 20, warmCalls: quick ? 1_000 : 3_000 }, { log });
}

const cold = args['no-cold'] ? undefined : await coldStart({ runs: opts.coldRuns, log });

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
    loadClient: LOAD_CLIENT,
    totalSec: 0,
  },
  features,
  throughput: [...best.values()],
  idleSessions,
  soak: soaks,
  ...(sessionsStore ? { sessionsStore } : {}),
  ...(auditCost ? { auditCost } : {}),
  ...(eventsCost ? { eventsCost } : {}),
  ...(toolRss ? { toolRss } : {}),
  ...(cold ? { coldStart: cold } : {}),
});
results.env.totalSec = Math.round((Date.now() - started) / 1000);
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(CHART_FILE, renderChart({ cells: CELLS, servers: SERVERS, throughput: results.throughput, date: results.env.date }));
writeFileSync(TABLE_FILE, renderMarkdown(results, { cells: CELLS, chartFile: 'results.svg' }));
if (!args['no-docs']) {
  if (embedInPage(DOC_PAGE, renderMarkdown(results, { cells: CELLS, chartFile: 'images/bench-throughput.svg' }))) {
    mkdirSync(dirname(CHART_DOC_FILE), { recursive: true }); // the page's images folder comes with the first chart
    copyFileSync(CHART_FILE, CHART_DOC_FILE);
    log(`updated ${DOC_PAGE} and ${CHART_DOC_FILE}`);
  } else log(`${DOC_PAGE} has no bench markers; the table is in ${TABLE_FILE}`);
}
printSummary(results, CELLS, log);
log(`\nwrote ${RESULTS_FILE}, ${TABLE_FILE} and ${CHART_FILE} in ${results.env.totalSec} s`);
if (args.strict && results.targets.some((t) => !t.met)) process.exitCode = 1;
