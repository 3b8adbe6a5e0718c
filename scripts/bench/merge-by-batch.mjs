#!/usr/bin/env node
// Throughput of mergeByBatch (batched upserts) in rows per second, against a
// baseline measured in the same run on the same pool: a plain parameterised
// one-row INSERT per row. Prints both rates and their ratio.
//
//   node scripts/bench/merge-by-batch.mjs [--rows 10000] [--batch 1000] [--baseline-rows 2000] [--url postgres://…] [--embedded] [--json]
//
// Needs the built SDK (pnpm build) and a PostgreSQL (default: FA_MCP_TEST_PG_URL or the
// local test server of scripts/ci/start-postgres.sh); --embedded uses PGlite instead.
// Works in a schema of its own, dropped at the end.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dbEntry = join(root, 'packages', 'fa-mcp-sdk', 'dist', 'db', 'index.js');
if (!existsSync(dbEntry)) {
  console.error('merge-by-batch: build the SDK first (pnpm build)');
  process.exit(2);
}
const { Databases, quoteTable } = await import(pathToFileURL(dbEntry).href);

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '1000' },
    'baseline-rows': { type: 'string', default: '2000' },
    url: { type: 'string', default: process.env.FA_MCP_TEST_PG_URL ?? 'postgres://fa_mcp:fa_mcp@127.0.0.1:5432/fa_mcp_test' },
    embedded: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const rows = Number(opts.rows);
const batchSize = Number(opts.batch);
const baselineRows = Math.min(Number(opts['baseline-rows']), rows);

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const base = { port: 5432, user: '', password: '', database: '', poolSize: 4, connectionTimeoutMs: 5000, idleTimeoutMs: 10000, statementTimeoutMs: 0, ssl: false, sslRejectUnauthorized: true, usedExtensions: [], embeddedDataDir: '' };
const main = opts.embedded ? { ...base, url: '', host: '', embedded: true } : { ...base, url: opts.url, host: '', embedded: false };
const db = new Databases({ config: { postgres: { dbs: { main } } }, logger: quiet });
const schema = `fa_mcp_bench_${randomBytes(4).toString('hex')}`;
const table = (name) => quoteTable({ schema, table: name });
const record = (i, tag) => ({ id: i, label: `${tag}-${i}`, amount: i * 3, note: i % 7 ? null : `note ${i}` });

const rate = (count, ms) => Math.round((count / ms) * 1000);
try {
  await db.main.exec(`CREATE SCHEMA "${schema}"`);
  for (const name of ['one_by_one', 'batched']) {
    await db.main.exec(`CREATE TABLE ${table(name)} (id int PRIMARY KEY, label text NOT NULL, amount bigint NOT NULL, note text)`);
  }
  // Warm-up: connections open, catalogs cached, for both paths alike.
  await db.main.query('SELECT 1');

  let t = performance.now();
  for (let i = 0; i < baselineRows; i++) {
    const r = record(i, 'one');
    await db.main.exec(`INSERT INTO ${table('one_by_one')} (id, label, amount, note) VALUES ($1, $2, $3, $4)`, [r.id, r.label, r.amount, r.note]);
  }
  const baselineMs = performance.now() - t;

  const fresh = Array.from({ length: rows }, (_, i) => record(i, 'a'));
  t = performance.now();
  const inserted = await db.main.mergeByBatch({ commonSchemaAndTable: { schema, table: 'batched' }, recordset: fresh, batchSize });
  const insertMs = performance.now() - t;

  const changed = Array.from({ length: rows }, (_, i) => record(i, 'b'));
  t = performance.now();
  const updated = await db.main.mergeByBatch({ commonSchemaAndTable: { schema, table: 'batched' }, recordset: changed, batchSize });
  const updateMs = performance.now() - t;

  const check = await db.main.oneRow(`SELECT count(*)::int AS c, count(*) FILTER (WHERE label LIKE 'b-%')::int AS b FROM ${table('batched')}`);
  if (check.c !== rows || check.b !== rows || inserted.rowCount !== rows || updated.rowCount !== rows) {
    throw new Error(`row check failed: ${JSON.stringify({ check, inserted: inserted.rowCount, updated: updated.rowCount })}`);
  }

  const result = {
    database: opts.embedded ? 'embedded (PGlite)' : new URL(opts.url).host,
    rows,
    batchSize,
    batches: inserted.batches,
    baseline: { rows: baselineRows, ms: Math.round(baselineMs), rowsPerSec: rate(baselineRows, baselineMs) },
    mergeInsert: { ms: Math.round(insertMs), rowsPerSec: rate(rows, insertMs) },
    mergeUpdate: { ms: Math.round(updateMs), rowsPerSec: rate(rows, updateMs) },
  };
  result.ratioInsert = Math.round((result.mergeInsert.rowsPerSec / result.baseline.rowsPerSec) * 10) / 10;
  result.ratioUpdate = Math.round((result.mergeUpdate.rowsPerSec / result.baseline.rowsPerSec) * 10) / 10;
  if (opts.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`mergeByBatch on ${result.database}: ${rows} rows, batches of ${batchSize} (${result.batches} batches)`);
    console.log(`  baseline, one INSERT per row : ${result.baseline.rowsPerSec.toLocaleString('en')} rows/s (${baselineRows} rows in ${result.baseline.ms} ms)`);
    console.log(`  mergeByBatch, new rows       : ${result.mergeInsert.rowsPerSec.toLocaleString('en')} rows/s (${result.mergeInsert.ms} ms)  x${result.ratioInsert}`);
    console.log(`  mergeByBatch, updating rows  : ${result.mergeUpdate.rowsPerSec.toLocaleString('en')} rows/s (${result.mergeUpdate.ms} ms)  x${result.ratioUpdate}`);
  }
} finally {
  await db.main.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  await db.close();
}
