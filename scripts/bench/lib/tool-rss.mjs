// RSS per example tool under sustained load: the built examples/demo server, a fresh process per
// tool, warmed up, then called for a bounded time (or number of calls) while its resident set is
// read from /proc/<pid>/status (VmRSS: no work for the server). The V8 heap (prom-client's
// nodejs_heap_size_total_bytes and _used_bytes on /metrics) is read at the start and the end of
// the measured phase. Nothing forces a garbage collection: what is measured is what a server under
// load holds. Under load the heap grows toward its next collection (a saw-tooth of tens of MB), so
// a tool is flat when the RSS grew by at most RSS_GROWTH_BOUND_MB and, of that, by at most
// OUTSIDE_HEAP_BOUND_MB outside the V8 heap: native memory V8 never sees, which no collection it
// plans for will free in time (an Intl formatter built on every call of get_time grew each
// instance by ~30 KB a call while its heap stayed at 30-50 MB).
import { readFileSync } from 'node:fs';
import { createInstance, freePort } from '../../cluster/cluster.mjs';
import { runLoad } from './load.mjs';
import { ERA_2026 } from './mcp-http.mjs';

/** The RSS growth a tool may show between the end of its warm-up and the end of its run. */
export const RSS_GROWTH_BOUND_MB = 64;
/** Of that, the growth outside the V8 heap (RSS growth minus the heap's own growth). */
export const OUTSIDE_HEAP_BOUND_MB = 16;

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'America/Sao_Paulo'];

/**
 * Every tool of examples/demo, with the arguments of call `i` and what its answer must contain.
 * ask_user is called by a client without elicitation: its answer is the tool error that says so
 * (the path a client without elicitation always takes; the elicitation round trip is not loaded).
 */
export const DEMO_TOOL_CALLS = [
  { tool: 'get_time', args: (i) => ({ timeZone: ZONES[i % ZONES.length] }), expect: '"local":' },
  { tool: 'convert_currency', args: (i) => ({ amount: 100 + (i % 1000), from: 'EUR', to: 'USD' }), expect: '"rate":' },
  { tool: 'slow_report', args: () => ({ steps: 1, stepMs: 10 }), expect: '"durationMs":' },
  { tool: 'ask_user', args: () => ({ question: 'Which colour?' }), expect: 'does not support elicitation' },
];

const META = {
  'io.modelcontextprotocol/protocolVersion': ERA_2026,
  'io.modelcontextprotocol/clientInfo': { name: 'fa-mcp-bench-rss', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Resident set of `pid` in bytes (VmRSS of /proc/<pid>/status), NaN when it is gone. */
export function vmRss(pid) {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The V8 heap of the server, from its /metrics: { total, used } in bytes. */
async function heapOf(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const metric = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { total: metric('nodejs_heap_size_total_bytes'), used: metric('nodejs_heap_size_used_bytes') };
}

/** Calls `call.tool` over `connections` keep-alive connections until `calls` were sent or `seconds` passed. */
function load(url, call, { connections, calls, seconds }) {
  const body = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: call.tool, arguments: call.args(id), _meta: META } });
  return runLoad({ url, era: '2026', connections, amount: calls, durationSec: seconds, headers: { 'mcp-name': call.tool }, body, expect: call.expect });
}

const mb = (bytes) => Number((bytes / 1e6).toFixed(1));

/**
 * One tool on a fresh demo process: `warmCalls` calls (at most `warmSec`), then `calls` calls (at
 * most `seconds`), RSS sampled every `everyMs`. Answers the figures and whether the growth stayed
 * within RSS_GROWTH_BOUND_MB.
 */
export async function measureToolRss(entry, call, { connections = 16, warmCalls = 3_000, warmSec = 5, calls = 30_000, seconds = 20, everyMs = 250, env = {} } = {}) {
  const inst = createInstance({
    name: `demo-${call.tool}`,
    port: await freePort(),
    entry,
    // Every call comes from 127.0.0.1: no rate limit; no per-call info log lines.
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn', MCP_RATE_LIMIT_ENABLED: 'false', ...env },
  }).start();
  try {
    await inst.waitReady(60_000);
    const url = `${inst.url}/mcp`;
    const warm = await load(url, call, { connections, calls: warmCalls, seconds: warmSec });
    if (warm.errors > 0) throw new Error(`${call.tool}: ${warm.errors} of ${warm.requests} warm-up calls failed, first: ${warm.firstError}`);
    const heapStart = await heapOf(inst.url);
    const samples = [{ ms: 0, rss: vmRss(inst.pid) }];
    const t0 = performance.now();
    const timer = setInterval(() => samples.push({ ms: Math.round(performance.now() - t0), rss: vmRss(inst.pid) }), everyMs);
    let run;
    try {
      run = await load(url, call, { connections, calls, seconds });
    } finally {
      clearInterval(timer);
    }
    const elapsedSec = (performance.now() - t0) / 1000;
    samples.push({ ms: Math.round(elapsedSec * 1000), rss: vmRss(inst.pid) });
    const heapEnd = await heapOf(inst.url);
    const start = samples[0].rss;
    const end = samples[samples.length - 1].rss;
    const peak = Math.max(...samples.map((s) => s.rss));
    const growth = end - start;
    const outsideHeap = growth - (heapEnd.total - heapStart.total);
    return {
      tool: call.tool,
      warmCalls: warm.requests,
      calls: run.requests,
      errors: run.errors,
      ...(run.firstError ? { firstError: run.firstError } : {}),
      callsPerSec: Math.round(run.requests / elapsedSec),
      seconds: Number(elapsedSec.toFixed(1)),
      rssStartMB: mb(start),
      rssEndMB: mb(end),
      rssPeakMB: mb(peak),
      rssGrowthMB: mb(growth),
      rssPerCallKB: Number((growth / Math.max(1, run.requests) / 1024).toFixed(2)),
      heapTotalStartMB: mb(heapStart.total),
      heapTotalEndMB: mb(heapEnd.total),
      heapUsedStartMB: mb(heapStart.used),
      heapUsedEndMB: mb(heapEnd.used),
      outsideHeapGrowthMB: mb(outsideHeap),
      flat: growth <= RSS_GROWTH_BOUND_MB * 1e6 && outsideHeap <= OUTSIDE_HEAP_BOUND_MB * 1e6 && run.errors === 0,
      samplesMB: samples.filter((_, i) => i % 4 === 0 || i === samples.length - 1).map((s) => [s.ms, mb(s.rss)]),
    };
  } finally {
    await inst.stop('SIGTERM');
  }
}

/** Every demo tool in turn (`only`: a subset by name). */
export async function measureDemoToolsRss(entry, opts = {}, { only, log = console.log } = {}) {
  const rows = [];
  for (const call of DEMO_TOOL_CALLS.filter((c) => !only || only.includes(c.tool))) {
    const row = await measureToolRss(entry, call, opts);
    log(formatToolRss(row));
    rows.push(row);
  }
  return rows;
}

const signed = (n) => `${n >= 0 ? '+' : ''}${n}`;

/** The target a tool is held to, as the bench states it. */
export const toolRssTarget = (r) =>
  `demo ${r.tool}: RSS growth over ${r.calls} calls after warm-up <= ${RSS_GROWTH_BOUND_MB} MB, <= ${OUTSIDE_HEAP_BOUND_MB} MB of it outside the V8 heap`;

/** One line per tool: calls, RSS start → end (peak), growth per call, live heap, and the verdict. */
export function formatToolRss(r) {
  return (
    `${r.flat ? 'FLAT ' : 'GROWS'} ${r.tool.padEnd(17)} ${String(r.calls).padStart(6)} calls in ${r.seconds} s (${r.callsPerSec}/s) after ${r.warmCalls} warm-up: ` +
    `RSS ${r.rssStartMB} -> ${r.rssEndMB} MB (peak ${r.rssPeakMB}; ${signed(r.rssGrowthMB)} MB, ${r.rssPerCallKB} KB/call; outside the V8 heap ${signed(r.outsideHeapGrowthMB)} MB), ` +
    `V8 heap ${r.heapTotalStartMB} -> ${r.heapTotalEndMB} MB (used ${r.heapUsedStartMB} -> ${r.heapUsedEndMB})${r.errors ? `; ${r.errors} failed calls, first: ${r.firstError}` : ''}`
  );
}
