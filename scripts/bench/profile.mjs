#!/usr/bin/env node
// Where a bench server spends its CPU on one path: starts the server with `--cpu-prof`, sends load
// for a few seconds, stops it and prints the top functions by self and by total time, and the
// self time per package/folder. The profile file stays in the output folder for DevTools.
//
//   node scripts/bench/profile.mjs --server fa-on --path 2026 [--duration 5] [--top 30] [--out dir]
//
// --server floor|bare|sdk-v1|fastmcp|fa-off|fa-on   --path 2025-json|2025-sse|2026, or a method cell such as '2026 prompts/get'
// --no-prof prints only the figures; --read <file.cpuprofile> summarizes an existing profile; --callers <name> (repeatable) prints the
// call chains above the functions whose name starts with <name>.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { runLoad } from './lib/load.mjs';
import { loadFor } from './lib/mcp-http.mjs';
import { summarizeProfile } from './lib/profile-summary.mjs';
import { pinLoadGenerator } from './lib/pinning.mjs';
import { METHOD_CELLS, PATHS, SERVERS, speaks } from './lib/scenarios.mjs';
import { ensurePeers } from './lib/peers.mjs';
import { BENCH_DIR } from './lib/paths.mjs';
import { startServer } from './lib/server-proc.mjs';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'fa-on' },
    path: { type: 'string', default: '2026' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    top: { type: 'string', default: '30' },
    out: { type: 'string' },
    /** Reads an existing profile instead of running the server. */
    read: { type: 'string' },
    /** With --read: only the profile's last seconds (the measured window). */
    last: { type: 'string' },
    /** Prints the call chains above functions whose name starts with one of these (repeatable). */
    callers: { type: 'string', multiple: true, default: [] },
    /** Only the figures (req/s, CPU per call), without profiling. */
    'no-prof': { type: 'boolean', default: false },
  },
});
const summaryOpts = { top: Number(args.top), callers: args.callers, lastSec: Number(args.last ?? (args.read ? 0 : args.duration)) || undefined };
if (args.read) {
  console.log(summarizeProfile(JSON.parse(readFileSync(args.read, 'utf8')), summaryOpts));
  process.exit(0);
}
const server = SERVERS.find((s) => s.id === args.server);
const path = [...PATHS, ...METHOD_CELLS].find((p) => p.id === args.path);
if (!server || !path) throw new Error(`unknown --server ${args.server} or --path ${args.path}`);
if (!speaks(server, path)) throw new Error(`${server.label} does not speak ${path.era}`);
const out = args.out ?? mkdtempSync(join(tmpdir(), 'fa-mcp-prof-'));

pinLoadGenerator();
ensurePeers();
const entries = await buildBenchServers();
if (!args['no-prof']) process.env.BENCH_CPU_PROF = out;
// These pass through to the server (see servers/fa-mcp.mjs and servers/floor.mjs): BENCH_ONLY, one
// feature at a time; BENCH_DB_URL, BENCH_SESSIONS_STORE and BENCH_DB_AMBIENT_SCOPE, the main database,
// the bus and the session store in PostgreSQL, with or without the ambient database scope;
// BENCH_FLOOR_WORK_US, the floor with n µs more work per call.
const PASS_THROUGH = ['BENCH_AUDIT', 'BENCH_ONLY', 'BENCH_DB_URL', 'BENCH_SESSIONS_STORE', 'BENCH_DB_AMBIENT_SCOPE', 'BENCH_FLOOR_WORK_US'];
const passThrough = Object.fromEntries(PASS_THROUGH.filter((key) => process.env[key]).map((key) => [key, process.env[key]]));
const proc = await startServer(server.entry ? entries[server.entry] : join(BENCH_DIR, server.file), { ...server.env, ...passThrough, BENCH_RESPONSE_MODE: path.responseMode });
delete process.env.BENCH_CPU_PROF;
const connections = Number(args.connections);
const load = await loadFor(proc, path.era, connections, path.method);
await runLoad({ ...load, durationSec: 1 });
const cpu0 = proc.cpuSeconds();
const r = await runLoad({ ...load, durationSec: Number(args.duration) });
const cpuUs = Math.round(((proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
await proc.stop();
console.log(`${server.id} on ${path.id}: ${r.reqPerSec} req/s, ${cpuUs} us CPU/call, p50 ${r.p50Ms} ms, errors ${r.errors}`);

if (args['no-prof']) process.exit(0);
const file = readdirSync(out).filter((f) => f.endsWith('.cpuprofile')).sort().pop();
if (!file) throw new Error(`no .cpuprofile in ${out}`);
console.log(summarizeProfile(JSON.parse(readFileSync(join(out, file), 'utf8')), summaryOpts));
console.log(`\nprofile: ${join(out, file)}`);
