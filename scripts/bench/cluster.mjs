#!/usr/bin/env node
// `npm run bench:cluster`: throughput of examples/demo's get_time (2026-07-28 tools/call, every
// answer checked) straight to one instance, through HAProxy to 1 instance, and through HAProxy to
// 3 instances, on one PostgreSQL (scripts/cluster/cluster.mjs). On a machine with few cores the
// instances, HAProxy, PostgreSQL and the load generator share them: the figures show what the
// balancer costs, not a speedup. Prints a table and writes scripts/bench/cluster-results.json.
//
// Options: --duration <s> (per cell, default 10)  --connections <n> (default 32)  --quick (3 s, 16)
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_PG_URL, createDatabase, ensureDemoDist, findHaproxy, startCluster } from '../cluster/cluster.mjs';
import { BENCH_DIR } from './lib/paths.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string' }, connections: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const durationSec = Number(values.duration ?? (values.quick ? 3 : 10));
const connections = Number(values.connections ?? (values.quick ? 16 : 32));
if (!findHaproxy()) throw new Error('haproxy is not installed: sudo bash scripts/ci/install-haproxy.sh');
// The demo as its sources are now (a stale dist/ would measure old code).
const entry = ensureDemoDist(console.log);

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'get_time',
    arguments: { timeZone: 'UTC' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench-cluster', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'get_time',
  'content-length': Buffer.byteLength(BODY),
};

function call(agent, url) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: HEADERS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(res.statusCode === 200 && text.includes('"structuredContent"') && !text.includes('"isError":true')));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.end(BODY);
  });
}

/** `connections` keep-alive connections, each calling in a loop for `durationSec`. */
async function load(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  if (!(await call(agent, url))) throw new Error(`get_time on ${url} did not answer correctly`);
  const latencies = [];
  let errors = 0;
  const deadline = performance.now() + durationSec * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        if (await call(agent, url)) latencies.push(performance.now() - t);
        else errors++;
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { requests: latencies.length, reqPerSec: Math.round(latencies.length / durationSec), p50Ms: +at(50).toFixed(1), p99Ms: +at(99).toFixed(1), errors };
}

const adminUrl = process.env.DB_MAIN_URL ?? LOCAL_PG_URL;
const db = await createDatabase(adminUrl, `fa_mcp_bench_${randomBytes(3).toString('hex')}`);
const rows = [];
try {
  for (const size of [1, 3]) {
    const cluster = await startCluster({ size, dbUrl: db.url, drainMs: 0, env: { MCP_RATE_LIMIT_ENABLED: 'false' }, readyTimeoutMs: 60_000, entry });
    try {
      if (size === 1) rows.push({ cell: '1 instance, direct', ...(await load(`${cluster.instances[0].url}/mcp`)) });
      rows.push({ cell: `HAProxy + ${size} instance${size > 1 ? 's' : ''}`, ...(await load(cluster.url)) });
    } finally {
      await cluster.stop();
    }
  }
} finally {
  await db.drop();
}

const machine = `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`;
console.log(`\nget_time, 2026-07-28, ${connections} connections, ${durationSec} s per cell; ${machine}`);
console.log('Everything shares the same CPUs: this is the cost of the balancer hop, not a scale-out figure.\n');
console.log('| Cell | req/s | p50 ms | p99 ms | errors |');
console.log('|------|------:|-------:|-------:|-------:|');
for (const r of rows) console.log(`| ${r.cell} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} |`);
writeFileSync(join(BENCH_DIR, 'cluster-results.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, connections, durationSec, rows }, null, 2)}\n`);
