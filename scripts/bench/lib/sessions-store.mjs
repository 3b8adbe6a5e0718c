// What keeping 2025-era sessions in PostgreSQL costs (mcp.sessions.store: postgres; issue #21's target:
// at most 5% of 2025-session throughput): the fa-mcp-sdk bench server (nothing enabled) with the memory
// store and with the postgres store, both on the same database and bus (only the store differs), both
// up at once, measured in alternating rounds on the same
// sessions (best req/s and least CPU per call kept), with JSON and SSE responses. PostgreSQL:
// BENCH_DB_URL (default: the tests' database); a schema of its own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { runLoad } from './load.mjs';
import { checkCall, openSessions } from './mcp-http.mjs';
import { sdkRequire } from './paths.mjs';
import { startServer } from './server-proc.mjs';

export const DEFAULT_DB_URL = 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test';

/**
 * Checks, before anything is measured, that the database the sessions-store part will use answers, so a
 * full run does not spend its throughput rounds and then stop on a refused connection. Throws an Error
 * that names the address (without the password) and both ways out.
 */
export async function assertSessionsStoreDb(baseUrl = process.env.BENCH_DB_URL ?? DEFAULT_DB_URL) {
  const pg = sdkRequire('pg');
  const client = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const where = baseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
    const reason = err instanceof Error ? (err.code ? `${err.code}: ${err.message}` : err.message) : String(err);
    throw new Error(
      `the sessions-store part of the bench needs PostgreSQL at ${where} (${reason}); ` +
        'start one (as root: bash scripts/ci/start-postgres.sh), point BENCH_DB_URL at another, or pass --no-sessions-store',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** @returns {Promise<Array<{ path: string, memory: number, postgres: number, ratio: number, memoryCpuUs: number, postgresCpuUs: number }>>} */
export async function measureSessionsStore({ entry, durationSec, rounds, connections, log = console.log, baseUrl = process.env.BENCH_DB_URL ?? DEFAULT_DB_URL }) {
  const pg = sdkRequire('pg');
  const schema = `bench_sessions_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: baseUrl, max: 1 });
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const dbUrl = `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const procs = [];
  const rows = [];
  try {
    for (const mode of ['json', 'sse']) {
      const servers = {};
      for (const store of ['memory', 'postgres']) {
        // Both on the same database and bus (what a server sharing sessions runs with anyway): only the store differs.
        const env = { BENCH_PROFILE: 'off', BENCH_RESPONSE_MODE: mode, BENCH_DB_URL: dbUrl, ...(store === 'postgres' ? { BENCH_SESSIONS_STORE: 'postgres' } : {}) };
        const proc = await startServer(entry, env);
        procs.push(proc);
        proc.sessions = await openSessions(proc.url, connections, proc.headers ?? {});
        await checkCall(proc.url, '2025', proc.sessions[0], proc.headers ?? {});
        servers[store] = proc;
      }
      const best = { memory: { reqPerSec: 0, cpu: Infinity }, postgres: { reqPerSec: 0, cpu: Infinity } };
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 === 1 ? ['memory', 'postgres'] : ['postgres', 'memory'];
        for (const store of order) {
          const proc = servers[store];
          const load = { url: proc.url, era: '2025', sessions: proc.sessions, headers: proc.headers ?? {}, connections };
          await runLoad({ ...load, durationSec: 1 }); // warm-up
          const cpu0 = proc.cpuSeconds();
          const r = await runLoad({ ...load, durationSec });
          const cpuUs = Math.round(((proc.cpuSeconds() - cpu0) / r.requests) * 1e6);
          if (r.errors > 0) throw new Error(`sessions store ${store}/${mode}: ${r.errors} failed calls, first: ${r.firstError}`);
          log(`round ${round} sessions store 2025-${mode} ${store.padEnd(8)} ${String(r.reqPerSec).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu ${cpuUs} us/call`);
          best[store] = { reqPerSec: Math.max(best[store].reqPerSec, r.reqPerSec), cpu: Math.min(best[store].cpu, cpuUs) };
        }
      }
      rows.push({
        path: `2025-${mode}`,
        memory: best.memory.reqPerSec,
        postgres: best.postgres.reqPerSec,
        ratio: Number((best.postgres.reqPerSec / best.memory.reqPerSec).toFixed(3)),
        memoryCpuUs: best.memory.cpu,
        postgresCpuUs: best.postgres.cpu,
      });
    }
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.end();
  }
  return rows;
}
