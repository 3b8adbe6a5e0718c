/**
 * The audit trail of one server, made from `mcp.audit`: the sink (JSON Lines file or stream,
 * PostgreSQL), the writer of this process's chain, the anchor signer, the OpenTelemetry mirror,
 * the metrics, retention and the readiness check. With `sink: off` it is a trail that records
 * nothing and costs nothing (`enabled: false`).
 *
 * The request layer calls `record(draft)` once per request, after the answer is known and before
 * it is sent: in sync mode it awaits the promise (a rejection is -32006: answer with it); in async
 * mode the promise is already resolved.
 */
import type { Registry } from 'prom-client';
import type { AppConfig } from '../config/schema.js';
import type { CoreLogger } from '../core/logger-types.js';
import type { PgPool } from '../db/pg-types.js';
import { hmacSigner, type AnchorSigner } from './anchor-signer.js';
import { isoClock, recordBody } from './audit-body.js';
import { checkAuditConfig, defaultAuditInstance, type DatabaseNames } from './audit-config.js';
import { AuditMetrics } from './audit-metrics.js';
import { pruneAudit, type PruneResult } from './audit-retention.js';
import { DISABLED_AUDIT_TRAIL, type AuditTrail } from './audit-trail-api.js';
import type { AuditSink } from './audit-sink.js';
import { AuditWriter } from './audit-writer.js';
import { createOtelMirror } from './otel-mirror.js';
import { createJsonlSink } from './sink-jsonl.js';
import { PostgresAuditSink } from './sink-postgres.js';

export { DISABLED_AUDIT_TRAIL, type AuditTrail } from './audit-trail-api.js';

export interface AuditTrailOptions {
  /** The `mcp` section (`audit`, and `transportType` for the stdout check). */
  config: Pick<AppConfig['mcp'], 'audit' | 'transportType'>;
  logger: CoreLogger;
  /** The instance name when `mcp.audit.instance` is empty; default `defaultAuditInstance(transportType)`. */
  instance?: string;
  /** Base of a relative `mcp.audit.file`; default the working folder. */
  cwd?: string;
  /** The configured databases (checked for `mcp.audit.database`) and the pool of that database, for the postgres sink. */
  databases?: DatabaseNames;
  pool?: () => Promise<PgPool>;
  /** The server's metrics registry, when metrics are on. */
  registry?: Registry;
  /** Signs anchors instead of the HMAC key of `mcp.audit.anchors.key` (e.g. `keySigner(jwtPrivateKey)`). */
  signer?: AnchorSigner;
  /** A sink of your own, replacing `mcp.audit.sink` (which must not be `off`). */
  sink?: AuditSink;
  now?: () => number;
}

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

async function openSink(opts: AuditTrailOptions): Promise<{ sink: AuditSink; pool?: PgPool }> {
  const { audit } = opts.config;
  if (opts.sink) return { sink: opts.sink };
  if (audit.sink === 'jsonl') return { sink: await createJsonlSink(audit.file, opts.cwd ?? process.cwd()) };
  if (!opts.pool) throw new Error('mcp.audit.sink "postgres" needs the server\'s databases (db.postgres.dbs)');
  const pool = await opts.pool();
  const sink = new PostgresAuditSink(pool, audit.database);
  await sink.migrate();
  return { sink, pool };
}

export async function createAuditTrail(opts: AuditTrailOptions): Promise<AuditTrail> {
  const { audit } = opts.config;
  if (audit.sink === 'off' && !opts.sink) return DISABLED_AUDIT_TRAIL;
  checkAuditConfig(opts.config, opts.databases);
  const instance = audit.instance || opts.instance || defaultAuditInstance(opts.config.transportType);
  const signer = opts.signer ?? (audit.anchors.key ? hmacSigner(audit.anchors.key) : undefined);
  const { sink, pool } = await openSink(opts);
  const now = opts.now ?? Date.now;
  // the queue depth gauge reads the writer made below
  const made: { writer?: AuditWriter } = {};
  const metrics = opts.registry ? new AuditMetrics(opts.registry, () => made.writer?.depth ?? 0) : undefined;
  const mirror = audit.otel ? await createOtelMirror() : undefined;
  const live = new AuditWriter({
    sink,
    mode: audit.mode,
    instance,
    queueSize: audit.queueSize,
    batchSize: audit.batchSize,
    windowMs: audit.windowMs,
    anchorIntervalMs: audit.anchors.intervalMs,
    logger: opts.logger,
    now,
    ...(signer ? { signer } : {}),
    ...(mirror ? { mirror } : {}),
    ...(metrics ? { metrics } : {}),
  });
  made.writer = live;
  await live.start();

  const retain = pool && audit.retentionDays > 0;
  if (audit.retentionDays > 0 && !pool) opts.logger.warn({ sink: sink.name }, 'audit: mcp.audit.retentionDays applies to the postgres sink; rotate a JSON Lines file with the log system');
  const prune = async (): Promise<PruneResult | undefined> => (retain ? pruneAudit(pool, new Date(now() - audit.retentionDays * DAY_MS), signer, new Date(now())) : undefined);
  const pruneTimer = retain
    ? setInterval(() => void prune().catch((err: unknown) => opts.logger.warn({ err: (err as Error).message }, 'audit: retention prune failed')), PRUNE_EVERY_MS)
    : undefined;
  pruneTimer?.unref();

  opts.logger.info({ sink: sink.name, mode: audit.mode, arguments: audit.arguments, instance, chain: live.chain, anchors: signer ? signer.alg : 'off' }, 'audit trail on');
  const bodyOptions = { arguments: audit.arguments, maxExtraBytes: audit.maxExtraBytes, now, iso: isoClock() };
  return {
    enabled: true,
    mode: audit.mode,
    instance,
    chain: live.chain,
    record: (draft) => live.record(recordBody(draft, bodyOptions)),
    readinessCheck: () => ({
      name: 'audit',
      timeoutMs: 5000,
      async check(signal) {
        const failing = live.failing;
        if (failing) throw new Error(`${sink.name}: ${failing.message}`);
        await sink.check(signal);
      },
    }),
    available: () => live.failing === undefined,
    flush: () => live.flush(),
    anchor: () => live.anchor(),
    prune,
    async close() {
      if (pruneTimer) clearInterval(pruneTimer);
      await live.close();
    },
  };
}
