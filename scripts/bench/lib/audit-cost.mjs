// What the audit trail costs (mcp.audit; issue #46's target: the async sinks at most 10% of throughput):
// the fa-mcp-sdk bench server with everything on, without the trail and with it in async JSON lines,
// async PostgreSQL and sync PostgreSQL. All four run on the same database and bus (only the trail
// differs), all up at once, measured in rotating rounds (best req/s and least CPU per call kept) on a
// 2025-11-25 session (JSON responses) and on 2026-07-28. PostgreSQL: BENCH_DB_URL (default: the tests'
// database); a schema of its own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { runLoad } from './load.mjs';
import { checkCall, openSessions } from './mcp-http.mjs';
import { sdkRequire } from './paths.mjs';
import { startServer } from './server-proc.mjs';
import { AUDIT_VARIANTS } from './scenarios.mjs';
import { DEFAULT_DB_URL } from './sessions-store.mjs';

const PATHS = [
  { id: '2025-json', era: '2025' },
  { id: '2026', era: '2026' },
];

/**
 * @returns {Promise<Array<{ path: string, variant: string, reqPerSec: number, cpuUs: number, p99Ms: number, ratio: number }>>}
 */
export async function measureAuditCost({ entry, durationSec, rounds, connections, log = console.log, baseUrl = process.env.BENCH_DB_URL ?? DEFAULT_DB_URL }) {
  const pg = sdkRequire('pg');
  const schema = `bench_audit_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: baseUrl, max: 1 });
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const dbUrl = `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const procs = new Map();
  const rows = [];
  try {
    for (const v of AUDIT_VARIANTS) {
      const env = { BENCH_PROFILE: 'on', BENCH_RESPONSE_MODE: 'json', BENCH_DB_URL: dbUrl, ...(v.id === 'none' ? {} : { BENCH_AUDIT: v.id }) };
      const proc = await startServer(entry, env);
      proc.headers ??= {};
      procs.set(v.id, proc);
      proc.sessions = await openSessions(proc.url, connections, proc.headers);
      for (const p of PATHS) await checkCall(proc.url, p.era, proc.sessions[0], proc.headers);
    }
    for (const path of PATHS) {
      const best = new Map(AUDIT_VARIANTS.map((v) => [v.id, { reqPerSec: 0, cpuUs: Infinity, p99Ms: Infinity }]));
      for (let round = 1; round <= rounds; round++) {
        // Rotated each round, so drift of the machine's load hits every variant alike.
        const order = AUDIT_VARIANTS.map((_, i) => AUDIT_VARIANTS[(i + round - 1) % AUDIT_VARIANTS.length]);
        for (const v of order) {
          const proc = procs.get(v.id);
          const load = { url: proc.url, era: path.era, sessions: proc.sessions, headers: proc.headers, connections };
          await runLoad({ ...load, durationSec: 1 }); // warm-up
          const cpu0 = proc.cpuSeconds();
          const r = await runLoad({ ...load, durationSec });
          const cpuUs = Math.round(((proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
          if (r.errors > 0) throw new Error(`audit ${v.id}/${path.id}: ${r.errors} failed calls, first: ${r.firstError}`);
          log(`round ${round} audit ${path.id.padEnd(9)} ${v.id.padEnd(11)} ${String(r.reqPerSec).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu ${cpuUs} us/call`);
          const b = best.get(v.id);
          best.set(v.id, { reqPerSec: Math.max(b.reqPerSec, r.reqPerSec), cpuUs: Math.min(b.cpuUs, cpuUs), p99Ms: Math.min(b.p99Ms, r.p99Ms) });
        }
      }
      const base = best.get('none').reqPerSec;
      for (const v of AUDIT_VARIANTS) {
        const b = best.get(v.id);
        rows.push({ path: path.id, variant: v.id, reqPerSec: b.reqPerSec, cpuUs: b.cpuUs, p99Ms: b.p99Ms, ratio: Number((b.reqPerSec / base).toFixed(3)) });
      }
    }
  } finally {
    await Promise.all([...procs.values()].map((p) => p.stop()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.end();
  }
  return rows;
}
