#!/usr/bin/env node
// RSS per example tool under sustained load (also part of `npm run bench`): builds examples/demo when
// its dist is older than its sources, then, for each tool, a fresh demo process is warmed up and
// called for a bounded run while its RSS is sampled (lib/tool-rss.mjs). A tool passes when, between
// the end of the warm-up and the end of the run, the RSS grew by at most RSS_GROWTH_BOUND_MB and, of
// that, by at most OUTSIDE_HEAP_BOUND_MB outside the V8 heap.
//
// Options: --tool <name> (repeatable; default every tool)  --calls <n> (default 30000)
//          --seconds <s> (at most, per tool; default 20)  --warm <n> (warm-up calls, default 3000)
//          --connections <n> (default 16)  --quick (10000 calls, 8 s, 1000 warm-up)
//          --json (print the figures as JSON too)  --strict (exit 1 when a tool's RSS is not flat)
//          --entry <start.js> (measure another build of the demo, e.g. an older one, instead of examples/demo/dist)
import { parseArgs } from 'node:util';
import { ensureDemoDist } from '../cluster/cluster.mjs';
import { OUTSIDE_HEAP_BOUND_MB, RSS_GROWTH_BOUND_MB, measureDemoToolsRss } from './lib/tool-rss.mjs';

const { values } = parseArgs({
  options: {
    tool: { type: 'string', multiple: true },
    calls: { type: 'string' },
    seconds: { type: 'string' },
    warm: { type: 'string' },
    connections: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    entry: { type: 'string' },
  },
});
const opts = {
  calls: Number(values.calls ?? (values.quick ? 10_000 : 30_000)),
  seconds: Number(values.seconds ?? (values.quick ? 8 : 20)),
  warmCalls: Number(values.warm ?? (values.quick ? 1_000 : 3_000)),
  connections: Number(values.connections),
};
const entry = values.entry ?? ensureDemoDist();
console.log(`RSS per examples/demo tool: ${opts.warmCalls} warm-up calls, then up to ${opts.calls} calls or ${opts.seconds} s per tool, ${opts.connections} connections, 2026-07-28; flat = RSS growth at most ${RSS_GROWTH_BOUND_MB} MB, at most ${OUTSIDE_HEAP_BOUND_MB} MB of it outside the V8 heap`);
const rows = await measureDemoToolsRss(entry, opts, { only: values.tool });
if (values.json) console.log(JSON.stringify(rows, null, 2));
const grown = rows.filter((r) => !r.flat);
console.log(grown.length ? `\nNOT FLAT: ${grown.map((r) => r.tool).join(', ')}` : "\nevery tool's RSS stayed flat");
if (values.strict && grown.length) process.exitCode = 1;
