/**
 * `fa-mcp audit verify | query`: the compliance reviewer's view of the audit trail, in the
 * PostgreSQL table (`--db [url]`, default DB_MAIN_URL) or in JSON Lines files (`--file a b …`,
 * oldest first); with neither, where the project's configuration (`mcp.audit`) writes.
 *
 * verify walks every chain and exits 1 naming the first record that was edited, deleted, inserted
 * or reordered (or a chain cut short, a forged signature); 0 with the count when intact, saying
 * for each chain how far its end is proven. query lists records by time range, principal, method,
 * target and outcome, newest first, as a table or JSON.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { hmacVerifier, publicKeyVerifier, type AnchorVerifier } from '../../audit/anchor-signer.js';
import { readJsonlRecords, readPostgresRecords } from '../../audit/audit-read.js';
import { queryJsonl, queryPostgres, type AuditQuery } from '../../audit/audit-query.js';
import type { AuditRecord, AuditRecordKind } from '../../audit/audit-record.js';
import { verifyRecords } from '../../audit/chain-verify.js';
import { summarize } from '../../audit/chain-summary.js';
import { recordOutcome, recordSubject, recordTargetName } from '../../audit/record-fields.js';
import type { StoredRecord } from '../../audit/stored-record.js';
import { loadConfig } from '../../config/loader.js';
import type { CoreLogger } from '../../core/logger-types.js';
import { Databases } from '../../db/databases.js';
import type { PgPool } from '../../db/pg-types.js';
import { action, CliUsageError, EXIT_CHECK_FAILED, EXIT_OK, printOut, type CliIo } from '../cli-io.js';

interface SourceOptions {
  db?: string | boolean;
  file?: string[];
  cwd?: string;
  configDir?: string;
  nodeEnv?: string;
}

export interface VerifyOptions extends SourceOptions {
  anchorKeyFile?: string;
  publicKey?: string;
  requireClosed?: boolean;
  json?: boolean;
}

export interface QueryOptions extends SourceOptions {
  from?: string;
  to?: string;
  subject?: string;
  method?: string;
  target?: string;
  outcome?: string;
  kind?: string;
  limit?: string;
  json?: boolean;
}

const silent: CoreLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };

type Source = { kind: 'files'; files: string[] } | { kind: 'db'; url?: string; database: string };

/** Where to read: the options, else the configuration's sink. */
function sourceOf(io: CliIo, opts: SourceOptions): Source {
  if (opts.db !== undefined && opts.file?.length) throw new CliUsageError('give --db or --file, not both');
  if (opts.file?.length) return { kind: 'files', files: opts.file.map((f) => resolve(io.cwd, f)) };
  if (opts.db !== undefined) return { kind: 'db', ...(typeof opts.db === 'string' ? { url: opts.db } : {}), database: 'main' };
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const { audit } = loadConfig({ cwd, env: io.env, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) }).config.mcp;
  if (audit.sink === 'postgres') return { kind: 'db', database: audit.database };
  if (audit.sink === 'jsonl' && audit.file !== 'stderr' && audit.file !== 'stdout') return { kind: 'files', files: [resolve(cwd, audit.file)] };
  throw new CliUsageError(`mcp.audit writes to ${audit.sink === 'off' ? 'nowhere (sink off)' : audit.file}: name the records with --db [url] or --file <path…>`);
}

async function withPool<T>(io: CliIo, opts: SourceOptions, source: Extract<Source, { kind: 'db' }>, body: (pool: PgPool) => Promise<T>): Promise<T> {
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const env = source.url ? { ...io.env, DB_MAIN_URL: source.url } : io.env;
  const { config } = loadConfig({ cwd, env, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) });
  const databases = new Databases({ config: config.db, logger: silent, cwd });
  if (!databases.has(source.database)) throw new CliUsageError(`no database to read: pass --db <url> or set ${source.database === 'main' ? 'DB_MAIN_URL' : `db.postgres.dbs.${source.database}.url`}`);
  try {
    return await body(await databases.get(source.database).pool());
  } finally {
    await databases.close();
  }
}

function verifierOf(io: CliIo, opts: VerifyOptions): AnchorVerifier | undefined {
  if (opts.publicKey) {
    const text = readFileSync(resolve(io.cwd, opts.publicKey), 'utf8').trim();
    const key = text.startsWith('{') ? createPublicKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' }) : createPublicKey(text);
    return publicKeyVerifier(key);
  }
  const secret = opts.anchorKeyFile ? readFileSync(resolve(io.cwd, opts.anchorKeyFile), 'utf8').trim() : io.env.MCP_AUDIT_ANCHOR_KEY;
  return secret ? hmacVerifier(secret) : undefined;
}

export async function auditVerify(io: CliIo, opts: VerifyOptions): Promise<number> {
  const source = sourceOf(io, opts);
  const verifier = verifierOf(io, opts);
  const walk = async (records: AsyncIterable<StoredRecord>) => verifyRecords(records, verifier ? { verifier } : {});
  const skipped = { lines: 0 };
  const result = source.kind === 'files' ? await walk(readJsonlRecords(source.files, skipped)) : await withPool(io, opts, source, (pool) => walk(readPostgresRecords(pool)));
  const summary = summarize(result, verifier?.description);
  if (skipped.lines > 0) summary.lines.splice(1, 0, `${skipped.lines} line${skipped.lines === 1 ? '' : 's'} that are not audit records skipped (log lines sharing the stream)`);
  const failed = !summary.ok || (opts.requireClosed === true && summary.openEnded > 0);
  if (opts.json) {
    const chains = result.chains.map((c) => ({ chain: c.chain, instance: c.instance, records: c.records, firstSeq: c.firstSeq, lastSeq: c.lastSeq, anchors: c.anchors, lastAnchorSeq: c.lastAnchorSeq ?? null, closed: c.closed, vouchedBy: c.vouchedBy ?? null, start: c.start }));
    printOut(io, JSON.stringify({ ok: !failed, count: result.count, problem: result.problem ?? null, signatures: result.signatures, chains, lines: summary.lines }, null, 2));
  } else {
    printOut(io, summary.lines.join('\n'));
    if (summary.ok && failed) printOut(io, `--require-closed: ${summary.openEnded} chain${summary.openEnded === 1 ? '' : 's'} not proven complete at the tail`);
  }
  return failed ? EXIT_CHECK_FAILED : EXIT_OK;
}

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An ISO date (or date-time), or a duration back from now: `15m`, `24h`, `7d`. */
export function parseTime(text: string, now = Date.now()): Date {
  const d = DURATION.exec(text);
  if (d) return new Date(now - Number(d[1]) * (UNIT_MS[d[2] as string] as number));
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new CliUsageError(`"${text}" is not a date (2025-06-01, 2025-06-01T12:00:00Z) or a duration back from now (15m, 24h, 7d)`);
  return new Date(ms);
}

const KINDS: readonly AuditRecordKind[] = ['request', 'task', 'chain_start', 'anchor', 'dropped', 'checkpoint'];

function queryOf(opts: QueryOptions): AuditQuery {
  const limit = Number(opts.limit ?? 100);
  if (!Number.isInteger(limit) || limit < 1) throw new CliUsageError('--limit must be a positive integer');
  const kinds = opts.kind ? opts.kind.split(',').map((k) => k.trim()) : undefined;
  for (const k of kinds ?? []) if (!(KINDS as readonly string[]).includes(k)) throw new CliUsageError(`--kind: ${k} is not one of ${KINDS.join(', ')}`);
  return {
    limit,
    ...(opts.from ? { from: parseTime(opts.from) } : {}),
    ...(opts.to ? { to: parseTime(opts.to) } : {}),
    ...(opts.subject !== undefined ? { subject: opts.subject } : {}),
    ...(opts.method !== undefined ? { method: opts.method } : {}),
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    ...(opts.outcome !== undefined ? { outcome: opts.outcome } : {}),
    ...(kinds ? { kinds: kinds as AuditRecordKind[] } : {}),
  };
}

function table(records: readonly AuditRecord[]): string {
  const rows = records.map((r) => [
    r.ts,
    recordSubject(r) ?? '-',
    r.method ?? (r.kind === 'task' ? 'task' : r.kind),
    recordTargetName(r) ?? '-',
    `${recordOutcome(r) ?? '-'}${r.outcome?.code !== undefined ? ` ${r.outcome.code}` : r.outcome?.httpStatus !== undefined ? ` http ${r.outcome.httpStatus}` : ''}${r.outcome?.reason ? ` (${r.outcome.reason})` : ''}`,
    r.durationMs !== undefined ? String(r.durationMs) : '-',
    r.requestId ?? '-',
  ]);
  const head = ['TIME', 'SUBJECT', 'METHOD', 'TARGET', 'OUTCOME', 'MS', 'REQUEST'];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((row) => (row[i] as string).length))));
  const fmt = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [fmt(head), ...rows.map(fmt)].join('\n');
}

export async function auditQuery(io: CliIo, opts: QueryOptions): Promise<number> {
  const query = queryOf(opts);
  const source = sourceOf(io, opts);
  const records = source.kind === 'files' ? await queryJsonl(source.files, query) : await withPool(io, opts, source, (pool) => queryPostgres(pool, query));
  if (opts.json) printOut(io, JSON.stringify(records, null, 2));
  else printOut(io, records.length === 0 ? 'no audit records match' : table(records));
  return EXIT_OK;
}

export function registerAuditCommand(program: Command, io: () => CliIo): Command {
  const cmd = program.command('audit').description('Verify and query the audit trail (mcp.audit): the PostgreSQL table or JSON Lines files');
  const source = (c: Command) =>
    c
      .option('--db [url]', 'read the PostgreSQL table fa_mcp_audit (default url: DB_MAIN_URL)')
      .option('--file <paths...>', 'read JSON Lines files, oldest first')
      .option('--cwd <dir>', 'project folder whose configuration names the sink (default: the current one)')
      .option('--config-dir <dir>', 'configuration folder (default <cwd>/config)')
      .option('--node-env <name>', 'selects config/<name>.yaml (default NODE_ENV or development)');
  source(cmd.command('verify').description('Walk every chain: exit 1 naming the first record edited, deleted, inserted or reordered; 0 with the count when intact'))
    .option('--anchor-key-file <file>', 'file holding mcp.audit.anchors.key, to check signatures (or env MCP_AUDIT_ANCHOR_KEY)')
    .option('--public-key <file>', 'PEM or JWK public key, for anchors signed with an asymmetric key')
    .option('--require-closed', 'also exit 1 when a chain\'s end is not proven (no final anchor, no later chain naming it)')
    .option('--json', 'print the result as JSON')
    .action(action(io, (ctx, opts: VerifyOptions) => auditVerify(ctx, opts)));
  source(cmd.command('query').description('List records, newest first'))
    .option('--from <time>', 'from this time (ISO date or 15m, 24h, 7d back from now)')
    .option('--to <time>', 'before this time')
    .option('--subject <subject>', 'principal subject (the actor of task records)')
    .option('--method <method>', 'JSON-RPC method, e.g. tools/call')
    .option('--target <name>', 'tool or prompt name, resource URI, task id')
    .option('--outcome <status>', 'ok, tool_error, error, refused, cancelled (task records: their status)')
    .option('--kind <kinds>', `record kinds, comma separated (default request,task; any of ${KINDS.join(', ')})`)
    .option('--limit <n>', 'at most this many', '100')
    .option('--json', 'print the records as JSON')
    .action(action(io, (ctx, opts: QueryOptions) => auditQuery(ctx, opts)));
  return cmd;
}
