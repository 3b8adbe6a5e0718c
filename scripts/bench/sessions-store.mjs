#!/usr/bin/env node
// The sessions-store part of `npm run bench` alone (lib/sessions-store.mjs): the postgres session store
// against the memory one, 2025-era sessions, JSON and SSE responses.
//
//   node scripts/bench/sessions-store.mjs [--duration 5] [--rounds 3] [--connections 32] [--json out.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { pinLoadGenerator, pinningNote } from './lib/pinning.mjs';
import { TARGETS } from './lib/scenarios.mjs';
import { measureSessionsStore } from './lib/sessions-store.mjs';

const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' }, json: { type: 'string' } },
});
const opts = { durationSec: Number(args.duration), rounds: Number(args.rounds), connections: Number(args.connections) };
pinLoadGenerator();
console.log(`CPU pinning: ${pinningNote()}`);
const bundled = await buildBenchServers();
const rows = await measureSessionsStore({ entry: bundled['fa-mcp'], ...opts });
const target = TARGETS.sessionsStoreOfMemory;
console.log(`\nsessions store: ${opts.connections} connections, ${opts.rounds} rounds of ${opts.durationSec} s (best kept); target postgres >= ${target} x memory`);
console.log('| path | memory req/s | postgres req/s | postgres / memory | memory CPU µs/call | postgres CPU µs/call | target met |');
console.log('|------|-------------:|---------------:|------------------:|-------------------:|---------------------:|:----------:|');
for (const r of rows) console.log(`| ${r.path} | ${r.memory} | ${r.postgres} | ${r.ratio} | ${r.memoryCpuUs} | ${r.postgresCpuUs} | ${r.ratio >= target ? 'yes' : 'no'} |`);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...opts, target, rows }, null, 2)}\n`);
process.exit(0);
