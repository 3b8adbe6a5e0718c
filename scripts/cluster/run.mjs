#!/usr/bin/env node
// `npm run cluster`: three instances of examples/demo on one PostgreSQL behind HAProxy
// (round-robin, no stickiness, health check on /ready), and the URL to connect to.
// Ctrl+C (or SIGTERM) stops HAProxy, then every instance (each drains), then drops the
// database it created.
//
// Options: --instances <n> (default 3)  --port <p> (HAProxy's port, default 8080; 0: a free one)
//          --drain-ms <ms> (SHUTDOWN_DRAIN_MS of each instance, default 3000)
// PostgreSQL: DB_MAIN_URL when set (a database of its own is created next to it), else the local
// one scripts/ci/start-postgres.sh starts (run `node scripts/services.mjs` first, or `npm test` once).
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_ENTRY, LOCAL_PG_URL, createDatabase, findHaproxy, startCluster } from './cluster.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    'drain-ms': { type: 'string', default: '3000' },
  },
});

if (!findHaproxy()) {
  console.error('haproxy is not installed: run `sudo bash scripts/ci/install-haproxy.sh` (Debian/Ubuntu), or set HAPROXY_BIN');
  process.exit(1);
}
if (!existsSync(DEMO_ENTRY)) {
  console.log('building examples/demo ...');
  execFileSync(process.execPath, [join(root, 'scripts', 'run-pnpm.mjs'), '--filter', 'fa-mcp-demo', 'build'], { cwd: root, stdio: 'inherit' });
}

const adminUrl = process.env.DB_MAIN_URL ?? LOCAL_PG_URL;
const dbName = `fa_mcp_cluster_${randomBytes(3).toString('hex')}`;
let db;
try {
  db = await createDatabase(adminUrl, dbName);
} catch (err) {
  console.error(`cannot create a database on ${new URL(adminUrl).host}: ${err.message}`);
  console.error('set DB_MAIN_URL to a PostgreSQL where the user may CREATE DATABASE, or start the local one: node scripts/services.mjs');
  process.exit(1);
}

const size = Number(values.instances);
const drainMs = Number(values['drain-ms']);
console.log(`starting ${size} instances of examples/demo on database ${dbName} ...`);
let cluster;
try {
  cluster = await startCluster({ size, dbUrl: db.url, drainMs, haproxyPort: Number(values.port), readyTimeoutMs: 60_000 });
} catch (err) {
  console.error(err.message);
  await db.drop().catch(() => undefined);
  process.exit(1);
}

console.log('');
console.log(`MCP endpoint (through HAProxy): ${cluster.url}`);
for (const i of cluster.instances) console.log(`  ${i.name}: ${i.url}/mcp (pid ${i.pid})`);
console.log('Each answer says which instance served it: the X-Served-By header.');
console.log(`Try: kill -TERM <pid> (the instance drains for ${drainMs} ms and leaves the rotation), kill -9 <pid>.`);
console.log('Ctrl+C stops everything.');

let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping HAProxy and the instances ...`);
  await cluster.stop();
  await db.drop().catch((err) => console.error(`could not drop ${dbName}: ${err.message}`));
  console.log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
