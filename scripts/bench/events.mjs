#!/usr/bin/env node
// The events part of `npm run bench` alone (lib/events-cost.mjs): MCP Events, emit → delivery latency
// and delivered/s on poll, push and webhook. Writes nothing unless --json says where; exits 1 when an
// occurrence was not delivered. BENCH_SDK_SRC=<src folder> measures another copy of the library's sources.
//
//   node scripts/bench/events.mjs [--mode push|poll|webhook (repeatable)] [--rate 200] [--seconds 3]
//        [--total <n> (throughput phase, every mode)] [--quick] [--json out.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { EVENT_MODES, EVENTS_QUICK, measureEventsCost } from './lib/events-cost.mjs';
import { pinLoadGenerator, pinningNote } from './lib/pinning.mjs';
import { eventsTable } from './lib/report.mjs';

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', multiple: true },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    total: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const modes = args.mode ?? EVENT_MODES;
for (const m of modes) if (!EVENT_MODES.includes(m)) throw new Error(`--mode ${m}: one of ${EVENT_MODES.join(', ')}`);
const opts = {
  ...(args.quick ? EVENTS_QUICK : {}),
  ...(args.rate ? { rate: Number(args.rate) } : {}),
  ...(args.seconds ? { steadySec: Number(args.seconds) } : {}),
  ...(args.total ? { total: Object.fromEntries(EVENT_MODES.map((m) => [m, Number(args.total)])) } : {}),
};
pinLoadGenerator();
console.log(`CPU pinning: ${pinningNote()}`);
const bundled = await buildBenchServers({ entries: ['fa-mcp'] });
const { settings, rows } = await measureEventsCost({ entry: bundled['fa-mcp'], modes, ...opts });
console.log(`\n${eventsTable(rows).join('\n')}`);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, pinning: pinningNote(), settings, rows }, null, 2)}\n`);
process.exit(rows.every((r) => r.complete) ? 0 : 1);
