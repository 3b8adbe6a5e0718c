#!/usr/bin/env node
// What one idle 2025-era session is made of, object by object: opens warm-up sessions, takes a heap
// snapshot (after the same GC passes as the memory probes), opens the measured sessions, takes a second,
// and prints the objects that are new in the second, grouped by constructor or function, per session,
// with one retainer path of a sample object of each group (who holds it).
//
//   node scripts/bench/idle-heap.mjs [--server fa-on] [--sessions 1000] [--warm 200] [--top 40] [--out dir]
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { heapDiff } from './lib/heap-diff.mjs';
import { openSessions } from './lib/mcp-http.mjs';
import { BENCH_DIR } from './lib/paths.mjs';
import { ensurePeers } from './lib/peers.mjs';
import { pinLoadGenerator } from './lib/pinning.mjs';
import { SERVERS } from './lib/scenarios.mjs';
import { startServer } from './lib/server-proc.mjs';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'fa-on' },
    sessions: { type: 'string', default: '1000' },
    warm: { type: 'string', default: '200' },
    top: { type: 'string', default: '40' },
    out: { type: 'string' },
  },
});
const server = SERVERS.find((s) => s.id === args.server && s.eras.includes('2025'));
if (!server) throw new Error(`unknown server ${args.server}`);
const count = Number(args.sessions);
const out = args.out ?? mkdtempSync(join(tmpdir(), 'fa-mcp-idle-heap-'));
mkdirSync(out, { recursive: true });
pinLoadGenerator();
if (server.file?.startsWith('peers/')) ensurePeers();
const bundled = await buildBenchServers();
const proc = await startServer(server.entry ? bundled[server.entry] : join(BENCH_DIR, server.file), { ...server.env, BENCH_RESPONSE_MODE: 'json' });
let before;
let after;
try {
  await openSessions(proc.url, Number(args.warm), proc.headers ?? {});
  before = await proc.snapshot(join(out, 'before.heapsnapshot'));
  await openSessions(proc.url, count, proc.headers ?? {});
  after = await proc.snapshot(join(out, 'after.heapsnapshot'));
} finally {
  await proc.stop();
}
const diff = heapDiff(before, after, { top: Number(args.top) });
const kb = (bytes) => (bytes / count / 1024).toFixed(2);
console.log(`${server.id}: ${kb(diff.totalBytes)} KB of new objects per session (self sizes, ${count} sessions); snapshots in ${out}`);
console.log(`net growth by kind, per session: ${diff.net.map((t) => `${t.type} ${(t.bytes / count).toFixed(0)} B`).join(', ')}`);
console.log('   B/sess  n/sess  what, and one retainer path');
for (const g of diff.groups) {
  console.log(`${(g.bytes / count).toFixed(0).padStart(8)} ${(g.count / count).toFixed(1).padStart(7)}  ${g.label}\n${' '.repeat(18)}${g.path}`);
}
