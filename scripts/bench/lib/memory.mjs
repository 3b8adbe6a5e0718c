// Memory figures: the cost of an idle 2025-era session, and whether memory settles under a long run.
import { openSessions } from './mcp-http.mjs';
import { runLoad } from './load.mjs';

/**
 * Opens `count` sessions and leaves them idle; returns live heap and RSS per session. The baseline is
 * taken after `warm` sessions were opened first, so what is measured is what one more session holds,
 * not what the server builds once, on its first sessions (compiled code, type feedback, lazy caches),
 * spread over the sessions; the same for every server.
 */
export async function idleSessionCost(server, count, warm = Math.min(200, count)) {
  const headers = server.headers ?? {};
  await openSessions(server.url, warm, headers);
  const before = await server.memory(true);
  await openSessions(server.url, count, headers);
  const after = await server.memory(true);
  if (after.sessions !== undefined && after.sessions < warm + count) {
    throw new Error(`${server.url} holds ${after.sessions} sessions after ${warm + count} were opened`);
  }
  return {
    sessions: count,
    heapPerSessionKB: Number(((after.heapUsed + after.external - before.heapUsed - before.external) / count / 1024).toFixed(1)),
    rssPerSessionKB: Number(((after.rss - before.rss) / count / 1024).toFixed(1)),
    rssAfterMB: Number((after.rss / 1e6).toFixed(1)),
  };
}

/**
 * Sends `calls` tools/call in `probes` slices, probing memory (after GC) after each slice. Each slice
 * also stops after maxSec / probes seconds, so a loaded machine sends fewer calls instead of
 * stretching the bench.
 */
export async function soak(server, { era, sessions, calls, probes = 5, connections, maxSec = Infinity }) {
  const started = performance.now();
  const headers = server.headers ?? {};
  const slice = Math.ceil(calls / probes);
  const points = [];
  let errors = 0;
  let sent = 0;
  const sliceSec = Number.isFinite(maxSec) ? maxSec / probes : undefined;
  while (sent < calls && (performance.now() - started) / 1000 < maxSec) {
    const amount = Math.min(slice, calls - sent);
    const r = await runLoad({ url: server.url, era, sessions, headers, connections, amount, ...(sliceSec ? { durationSec: sliceSec } : {}) });
    errors += r.errors;
    sent += r.requests;
    const m = await server.memory(true);
    points.push({ calls: sent, rssMB: Number((m.rss / 1e6).toFixed(1)), heapMB: Number((m.heapUsed / 1e6).toFixed(1)) });
  }
  const first = points[0];
  const last = points[points.length - 1];
  return {
    era,
    calls: sent,
    plannedCalls: calls,
    errors,
    points,
    heapGrowthMB: Number((last.heapMB - first.heapMB).toFixed(1)),
    rssGrowthMB: Number((last.rssMB - first.rssMB).toFixed(1)),
  };
}
