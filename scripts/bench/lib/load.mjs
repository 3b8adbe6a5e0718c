// The load generator: a pool of keep-alive HTTP connections, each sending one request after another
// (tools/call unless `method` says otherwise; fresh JSON-RPC id each time). On 2025-era runs each
// connection has its own session. Every answer is checked (HTTP 200 and the workload's expected text
// in it, lib/workloads.mjs); anything else counts as an error.
//
// The client is lib/raw-http.mjs (a lean HTTP/1.1 client on a TCP socket, so the generator costs
// little beside any server); BENCH_LOAD=node-http uses node:http's client instead, as before.
import { Agent, request } from 'node:http';
import { callBody, callHeaders } from './mcp-http.mjs';
import { RawHttpConnection } from './raw-http.mjs';
import { workload } from './workloads.mjs';

function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const nodeHttp = process.env.BENCH_LOAD === 'node-http';
/** Which client the generator uses, for the results. */
export const LOAD_CLIENT = nodeHttp ? "node:http's client (BENCH_LOAD=node-http)" : 'a raw HTTP/1.1 client on TCP sockets (lib/raw-http.mjs)';

/** node:http's client on one kept-alive socket (BENCH_LOAD=node-http). */
function nodeHttpConnection(url, headers) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return { post: (body) => post(agent, url, headers, body), destroy: () => agent.destroy() };
}

/** The p-th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `body(id)` and `expect` replace the workload's request and expected text (lib/tool-rss.mjs calls
 * other tools with arguments of their own).
 * @param {{ url: string, era: '2025' | '2026', method?: string, sessions?: string[], headers?: Record<string, string>, connections: number, durationSec?: number, amount?: number, body?: (id: number) => string, expect?: string }} opts
 * @returns {Promise<{ requests: number, reqPerSec: number, p50Ms: number, p99Ms: number, errors: number, firstError?: string }>}
 */
export async function runLoad(opts) {
  const { url, era, sessions = [], connections, headers: extra = {}, method = 'tools/call' } = opts;
  const expect = opts.expect ?? workload(method).expect;
  const body = opts.body ?? ((id) => callBody(era, id, method));
  // Stops at `amount` calls or after `durationSec`, whichever comes first (5 s when neither is given).
  const seconds = opts.durationSec ?? (opts.amount ? Infinity : 5);
  const deadline = performance.now() + seconds * 1000;
  let remaining = opts.amount ?? Infinity;
  let nextId = 1;
  let errors = 0;
  let firstError;
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      const headers = callHeaders(era, sessions[i % Math.max(1, sessions.length)], extra, method);
      const connection = nodeHttp ? nodeHttpConnection(url, headers) : new RawHttpConnection(url, headers);
      try {
        while (remaining > 0 && performance.now() < deadline) {
          remaining--;
          const t0 = performance.now();
          try {
            const res = await connection.post(body(nextId++));
            latencies.push(performance.now() - t0);
            if (res.status !== 200 || !res.text.includes(expect) || res.text.includes('"error"')) {
              errors++;
              firstError ??= `HTTP ${res.status}: ${res.text.slice(0, 200)}`;
            }
          } catch (err) {
            errors++;
            firstError ??= String(err);
          }
        }
      } finally {
        connection.destroy();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    reqPerSec: Math.round(latencies.length / elapsed),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
