#!/usr/bin/env node
// `npm run cluster`: three instances of examples/demo on one PostgreSQL behind HAProxy
// (round-robin, no stickiness, health check on /ready), and the URL to connect to.
// While it runs, the terminal says what happens: an instance that exits (SIGTERM, a crash,
// kill -9) is reported with its exit code or signal (a crash with its last log lines), followed by
// the list of the instances still running; HAProxy's failed requests and health check changes are
// printed as HAProxy logs them. Its whole log (every request) goes to a file named in the banner.
// Ctrl+C (or SIGTERM) stops HAProxy, then every instance (each drains), then drops the
// database it created.
//
// Options: --instances <n> (default 3)  --port <p> (HAProxy's port, default 8080; 0: a free one)
//          --drain-ms <ms> (SHUTDOWN_DRAIN_MS of each instance, default 3000)
//          --log-file <path> (HAProxy's log; default <tmpdir>/<database>-haproxy.log, kept at the end)
// PostgreSQL: DB_MAIN_URL when set (a database of its own is created next to it), else the local
// one scripts/ci/start-postgres.sh starts (run `node scripts/services.mjs` first, or `npm test` once).
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_PG_URL, createDatabase, describeExit, ensureDemoDist, findHaproxy, startCluster } from './cluster.mjs';
import { followFile, isNotable } from './haproxy-log.mjs';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    'drain-ms': { type: 'string', default: '3000' },
    'log-file': { type: 'string' },
  },
});

if (!findHaproxy()) {
  console.error('haproxy is not installed: run `sudo bash scripts/ci/install-haproxy.sh` (Debian/Ubuntu), or set HAPROXY_BIN');
  process.exit(1);
}
const entry = ensureDemoDist(console.log);

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
const logFile = resolve(values['log-file'] ?? join(tmpdir(), `${dbName}-haproxy.log`));
const time = () => new Date().toTimeString().slice(0, 8);
const say = (line) => console.log(`[${time()}] ${line}`);
// HAProxy's failed requests and health check changes, as it logs them (from the start of this run).
const follower = followFile(logFile, (line) => isNotable(line) && say(`haproxy: ${line}`), { offset: existsSync(logFile) ? statSync(logFile).size : 0 });

let cluster;
let stopping = false;
/** The last exit of each instance that is not running, by name. */
const gone = new Map();

function printInstances() {
  const live = cluster.instances.filter((i) => i.running);
  say(`instances running: ${live.length} of ${cluster.instances.length}${live.length === 0 ? ' (HAProxy has no instance to send a request to: it answers 503)' : ''}`);
  for (const i of live) console.log(`  ${i.name}: ${i.url}/mcp (pid ${i.pid})`);
  for (const i of cluster.instances.filter((x) => !x.running)) console.log(`  ${gone.get(i.name) ?? `${i.name}: not running`}`);
}

function onInstanceExit(inst, exit) {
  if (stopping) return;
  const what = describeExit(inst.name, exit);
  gone.set(inst.name, `${what} at ${time()}`);
  say(what);
  // A crash says why in its last lines; a kill -9 or a clean stop has nothing to add.
  if (!exit.signal && exit.code !== 0) {
    const last = inst.log().trimEnd().split('\n').slice(-12);
    console.log(last.map((l) => `  ${inst.name}| ${l}`).join('\n'));
  }
  printInstances();
}

async function stop(signal, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping HAProxy and the instances ...`);
  await cluster?.stop();
  follower.stop();
  await db.drop().catch((err) => console.error(`could not drop ${dbName}: ${err.message}`));
  console.log(`stopped; HAProxy's log is kept in ${logFile}`);
  process.exit(code);
}

function onHaproxyExit({ code, signal }) {
  if (stopping) return;
  say(`HAProxy exited (${signal ? `killed by ${signal}` : `code ${code}`}): nothing answers on the cluster's port any more`);
  void stop('HAProxy gone', 1);
}

console.log(`starting ${size} instances of examples/demo on database ${dbName} ...`);
try {
  cluster = await startCluster({ size, dbUrl: db.url, drainMs, entry, haproxyPort: Number(values.port), readyTimeoutMs: 60_000, haproxyLogFile: logFile, onInstanceExit, onHaproxyExit });
} catch (err) {
  stopping = true;
  console.error(err.message);
  follower.stop();
  await db.drop().catch(() => undefined);
  process.exit(1);
}

console.log('');
console.log(`MCP endpoint (through HAProxy): ${cluster.url}`);
for (const i of cluster.instances) console.log(`  ${i.name}: ${i.url}/mcp (pid ${i.pid})`);
console.log('Each answer says which instance served it: the X-Served-By header.');
console.log(`HAProxy logs every request to ${logFile}; failed requests and health check changes are printed here.`);
console.log(`Try: kill -TERM <pid> (the instance drains for ${drainMs} ms and leaves the rotation), kill -9 <pid>.`);
console.log('Ctrl+C stops everything.');

process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
