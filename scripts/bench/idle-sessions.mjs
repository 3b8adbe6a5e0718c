#!/usr/bin/env node
// What one idle 2025-era session holds, for some servers of the bench, without the whole bench: the same
// measurement as `npm run bench` (lib/memory.mjs: warm-up sessions, then live heap after a full GC before
// and after opening the measured ones), each server in its own pinned process.
//
//   node scripts/bench/idle-sessions.mjs [--servers fa-on,bare] [--sessions 1000] [--warm 200]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBenchServers } from './lib/build.mjs';
import { idleSessionCost } from './lib/memory.mjs';
import { BENCH_DIR } from './lib/paths.mjs';
import { ensurePeers } from './lib/peers.mjs';
import { pinLoadGenerator } from './lib/pinning.mjs';
import { SERVERS } from './lib/scenarios.mjs';
import { startServer } from './lib/server-proc.mjs';

const { values: args } = parseArgs({
  options: {
    servers: { type: 'string', default: 'fa-on,bare' },
    sessions: { type: 'string', default: '1000' },
    warm: { type: 'string', default: '200' },
  },
});
const wanted = args.servers.split(',').map((id) => {
  const server = SERVERS.find((s) => s.id === id && s.eras.includes('2025'));
  if (!server) throw new Error(`unknown server ${id} (one of ${SERVERS.filter((s) => s.eras.includes('2025')).map((s) => s.id).join(', ')})`);
  return server;
});
pinLoadGenerator();
if (wanted.some((s) => s.file?.startsWith('peers/'))) ensurePeers();
const bundled = await buildBenchServers();
for (const server of wanted) {
  const proc = await startServer(server.entry ? bundled[server.entry] : join(BENCH_DIR, server.file), { ...server.env, BENCH_RESPONSE_MODE: 'json' });
  try {
    const cost = await idleSessionCost(proc, Number(args.sessions), Number(args.warm));
    console.log(`${server.id.padEnd(8)} ${String(cost.heapPerSessionKB).padStart(6)} KB live heap, ${String(cost.rssPerSessionKB).padStart(6)} KB RSS per session (${cost.sessions} after ${args.warm} warm-up)`);
  } finally {
    await proc.stop();
  }
}
