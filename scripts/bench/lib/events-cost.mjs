// What delivering an MCP Event takes (issue #45), per delivery mode: the fa-mcp bench server with
// everything on (JWT auth: a webhook subscription needs a principal) and the Events extension
// (BENCH_EVENTS=1, servers/events.mjs: memory store), a fresh one per mode, its event type's log first
// filled to the default retention (a server that has run a while holds that much of a busy type, and
// every read of a subscriber is made against it), then one subscriber from now (lib/events-client.mjs):
//
// - latency: occurrences emitted at a steady rate, one per `emit_event` call; each payload carries
//   the bench's clock reading taken as it sent the call, so "emit → delivery" is measured on this
//   process's clock alone (it includes the emitting call's own trip to the server); and the server's
//   wall clock at its emit() call, so "from emit()" (the server's share) is measured too, across two
//   processes of this machine;
// - throughput: `total` occurrences emitted as fast as the server takes them (`concurrency` callers,
//   `batch` occurrences per call), delivered/s = occurrences delivered / (last arrival - first emit
//   sent): the rate the server sustains emitting and delivering on its one CPU; and the server's CPU
//   time per occurrence over the same window.
//
// Every occurrence must arrive (repeats are counted, not delivered twice); what is missing after
// `drainSec` is reported, with `complete: false`. Nothing here is a speed target.
import { performance } from 'node:perf_hooks';
import { BENCH_EVENT, MAX_EMIT_COUNT, RETENTION } from '../servers/events.mjs';
import { Arrivals, call, emit, subscribe } from './events-client.mjs';
import { percentile } from './load.mjs';
import { startServer } from './server-proc.mjs';

export const EVENT_MODES = ['push', 'poll', 'webhook'];

export const EVENTS_DEFAULTS = {
  warmup: 100,
  rate: 200,
  steadySec: 3,
  /** Occurrences of the throughput phase per mode: below the retention, so a lagging subscriber loses none. */
  total: { push: 8_000, poll: 8_000, webhook: 2_000 },
  batch: 100,
  concurrency: 4,
  /** Longest the throughput phase emits, whatever `total` says (a slow machine sends fewer). */
  maxEmitSec: 5,
  /** How long after the last emit the bench waits for what is still on its way. */
  drainSec: 20,
  pollTimeoutMs: 5_000,
};

/** `--quick`: shorter phases. */
export const EVENTS_QUICK = { steadySec: 2, total: { push: 5_000, poll: 5_000, webhook: 2_000 } };

const NOT_MEASURED = { emitted: 0, delivered: 0, emittedPerSec: null, deliveredPerSec: null, cpuUsPerEvent: null };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (n) => Number(n.toFixed(2));

/** One emit_event call per occurrence at `rate` per second for `steadySec`, not waiting for answers (open loop). */
async function steady(server, arrivals, from, { rate, steadySec, drainSec }) {
  const n = Math.round(rate * steadySec);
  const seen = arrivals.window(from, from + n);
  const t0 = performance.now();
  const calls = [];
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    calls.push(emit(server, from + i, 1));
  }
  await Promise.all(calls);
  await arrivals.until(() => seen.count === n, drainSec * 1000);
  const got = arrivals.in(from, from + n);
  const sorted = (xs) => xs.sort((a, b) => a - b);
  const fromSend = sorted(got.map((a) => a.at - a.sentAt));
  const fromEmit = sorted(got.map((a) => a.wall - a.emittedAt));
  return {
    sent: n,
    samples: got.length,
    p50Ms: ms(percentile(fromSend, 50)),
    p99Ms: ms(percentile(fromSend, 99)),
    fromEmitP50Ms: ms(percentile(fromEmit, 50)),
    fromEmitP99Ms: ms(percentile(fromEmit, 99)),
  };
}

/** `total` occurrences as fast as the server takes them; what was delivered per second meanwhile. */
async function burst(proc, server, arrivals, from, total, { batch, concurrency, maxEmitSec, drainSec }) {
  const end = from + total;
  let next = from;
  const seen = arrivals.window(from, end);
  const cpu0 = proc.cpuSeconds();
  const t0 = performance.now();
  const stopAt = t0 + maxEmitSec * 1000;
  let lastStored = t0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < end && performance.now() < stopAt) {
        const start = next;
        const count = Math.min(batch, end - start);
        next += count;
        await emit(server, start, count);
        lastStored = performance.now();
      }
    }),
  );
  const emitted = next - from;
  await arrivals.until(() => seen.count === emitted, drainSec * 1000);
  const cpu = proc.cpuSeconds() - cpu0;
  return {
    emitted,
    delivered: seen.count,
    emittedPerSec: Math.round(emitted / ((lastStored - t0) / 1000)),
    deliveredPerSec: seen.count > 0 ? Math.round(seen.count / ((seen.lastAt - t0) / 1000)) : 0,
    // Only when every occurrence arrived: otherwise the window's CPU went to more emits than deliveries.
    cpuUsPerEvent: seen.count === emitted ? Math.round((cpu / emitted) * 1e6) : null,
  };
}

/** One mode on a fresh server: its log filled to the retention, a subscriber from now, warm-up, latency, throughput. */
async function measureMode(entry, mode, opts) {
  const proc = await startServer(entry, { BENCH_PROFILE: 'on', BENCH_RESPONSE_MODE: 'json', BENCH_EVENTS: '1' });
  const server = { url: proc.url, headers: proc.headers ?? {} };
  try {
    const listed = await call(server, 'events/list', {});
    if (!listed.events?.some((e) => e.name === BENCH_EVENT)) throw new Error(`events/list of the bench server: ${JSON.stringify(listed).slice(0, 300)}`);
    // A server that has run a while holds a full retention of a busy type: reads are measured against that.
    for (let from = 0; from < RETENTION; from += MAX_EMIT_COUNT) await emit(server, from, MAX_EMIT_COUNT);
    let seq = RETENTION;
    const arrivals = new Arrivals();
    const subscriber = await subscribe(mode, server, arrivals, { timeoutMs: opts.pollTimeoutMs });
    try {
      // Warm-up (JIT, connections, the webhook dispatcher), not counted: one occurrence at a time, each delivered before the next.
      for (const end = seq + opts.warmup; seq < end; seq++) {
        const one = arrivals.window(seq, seq + 1);
        await emit(server, seq, 1);
        if (!(await arrivals.until(() => one.count === 1, opts.drainSec * 1000))) throw new Error(`events ${mode}: a warm-up occurrence was not delivered within ${opts.drainSec} s`);
      }
      const latency = await steady(server, arrivals, seq, opts);
      seq += latency.sent;
      // A backlog left by the latency phase would be delivered first (in order): the throughput phase would measure it.
      const rate = latency.samples === latency.sent ? await burst(proc, server, arrivals, seq, opts.total[mode], opts) : NOT_MEASURED;
      return { mode, ...latency, ...rate, duplicates: arrivals.duplicates, complete: latency.samples === latency.sent && rate.delivered === rate.emitted };
    } finally {
      await subscriber.close();
    }
  } finally {
    await proc.stop();
  }
}

/**
 * `overrides`: any of EVENTS_DEFAULTS (`total` per mode).
 * @returns {Promise<{ settings: typeof EVENTS_DEFAULTS & { retention: number }, rows: Array<{ mode: string, sent: number, samples: number, p50Ms: number, p99Ms: number, fromEmitP50Ms: number, fromEmitP99Ms: number, emitted: number, delivered: number, emittedPerSec: number, deliveredPerSec: number, cpuUsPerEvent: number, duplicates: number, complete: boolean }> }>}
 */
export async function measureEventsCost({ entry, log = console.log, modes = EVENT_MODES, ...overrides }) {
  const opts = { ...EVENTS_DEFAULTS, ...overrides, total: { ...EVENTS_DEFAULTS.total, ...overrides.total } };
  if (opts.batch > MAX_EMIT_COUNT) throw new Error(`events batch ${opts.batch}: at most ${MAX_EMIT_COUNT}`);
  // A subscriber further behind than the retention would lose what the sweep drops.
  for (const mode of modes) if (opts.total[mode] >= RETENTION) throw new Error(`events total for ${mode}: below the retention (${RETENTION})`);
  const rows = [];
  for (const mode of modes) {
    const row = await measureMode(entry, mode, opts);
    rows.push(row);
    log(
      `events ${mode.padEnd(7)} emit → delivery p50 ${row.p50Ms} ms p99 ${row.p99Ms} ms (from emit() ${row.fromEmitP50Ms} / ${row.fromEmitP99Ms} ms) at ${opts.rate}/s; ` +
        `${row.deliveredPerSec} delivered/s (${row.delivered} of ${row.emitted}, emitted at ${row.emittedPerSec}/s), ${row.cpuUsPerEvent ?? '—'} µs server CPU per event` +
        (row.complete ? '' : `; INCOMPLETE: ${row.sent - row.samples + row.emitted - row.delivered} not delivered within ${opts.drainSec} s`) +
        (row.deliveredPerSec === null ? ' (throughput not measured: the latency phase did not drain)' : ''),
    );
  }
  return { settings: { ...opts, retention: RETENTION }, rows };
}
