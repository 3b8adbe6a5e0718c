/**
 * Builds the webhooks of one server from `webhooks`: the endpoints (secrets
 * checked at start), the outbox (memory, or PostgreSQL migrated at start),
 * the dispatcher loop and its metrics, and the sender handlers call. Also the
 * operator's view: dead events listed and sent again.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../core/request-context.js';
import type { PgPool } from '../db/pg-types.js';
import type { Registry } from 'prom-client';
import type { WebhooksConfig } from '../config/sections/webhooks.js';
import { AddressPolicy } from './address-policy.js';
import { createHttpPoster, type HttpPoster } from './http-delivery.js';
import { realScheduler, WebhookDispatcher, type DispatcherLogger, type Scheduler } from './webhook-dispatcher.js';
import { resolveEndpoint, type ResolvedEndpoint } from './webhook-endpoint.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { InMemoryWebhookOutbox } from './outbox-memory.js';
import { PostgresWebhookOutbox } from './outbox-postgres.js';
import { createWebhookSender } from './webhook-sender.js';
import type { IWebhookOutbox, IWebhookSender, WebhookDelivery } from './webhook-types.js';

export interface WebhookRuntimeOptions {
  config: WebhooksConfig;
  /** NODE_ENV: private networks are allowed by default only outside production. */
  nodeEnv: string;
  /** Where `secretEnv` names are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** The pool of `webhooks.database`, for the postgres outbox. */
  pool?: () => Promise<PgPool>;
  logger: DispatcherLogger;
  /** The server's metrics registry, when metrics are on. */
  registry?: Registry;
  /** An outbox of your own (replaces `webhooks.store`). */
  outbox?: IWebhookOutbox;
  scheduler?: Scheduler;
  random?: () => number;
  /** The HTTP attempt (tests may replace it); default: Node's http with the address policy. */
  post?: HttpPoster;
  userAgent?: string;
  /** Start the delivery loop (default true; false leaves runOnce to the caller). */
  autoStart?: boolean;
}

/** The webhooks of a running server (`handle.webhooks`). */
export interface WebhookRuntime {
  /**
   * `send` queues the server's own events (their idempotency keys are the server's, and are
   * their `webhook-id`); `forRequest(context)` is what a handler of that request gets as
   * `webhooks`, its keys scoped to the request's caller.
   */
  sender: IWebhookSender & { forRequest(context: RequestContext): IWebhookSender };
  outbox: IWebhookOutbox;
  dispatcher: WebhookDispatcher;
  /** Names of the configured endpoints. */
  endpoints: string[];
  /** Dead events, newest first (bodies included, secrets never). */
  listDead(limit?: number): Promise<WebhookDelivery[]>;
  /** Puts dead events (all, or those ids) back in the outbox for a fresh round of attempts. */
  resend(ids?: string[]): Promise<number>;
  close(): Promise<void>;
}

export async function createWebhookRuntime(opts: WebhookRuntimeOptions): Promise<WebhookRuntime> {
  const { config, logger } = opts;
  const scheduler = opts.scheduler ?? realScheduler;
  const env = opts.env ?? process.env;
  const endpoints = new Map<string, ResolvedEndpoint>();
  for (const e of config.endpoints) {
    if (endpoints.has(e.name)) throw new Error(`webhooks.endpoints: the name ${e.name} is used twice`);
    endpoints.set(e.name, resolveEndpoint(e, config.timeoutMs, env));
  }
  let outbox = opts.outbox;
  if (!outbox && config.store === 'postgres') {
    if (!opts.pool) throw new Error('webhooks.store "postgres" needs the server\'s databases (db.postgres.dbs)');
    const pg = new PostgresWebhookOutbox(await opts.pool());
    await pg.migrate();
    outbox = pg;
  }
  outbox ??= new InMemoryWebhookOutbox();
  const allowPrivate = config.allowPrivateNetworks ?? opts.nodeEnv !== 'production';
  const metrics = opts.registry ? new WebhookMetrics(opts.registry, () => outbox.countByStatus()) : undefined;
  const dispatcher = new WebhookDispatcher({
    outbox,
    endpoints,
    post: opts.post ?? createHttpPoster(new AddressPolicy(allowPrivate)),
    retry: config,
    owner: randomUUID(),
    leaseMs: config.leaseMs,
    pollIntervalMs: config.pollIntervalMs,
    concurrency: config.concurrency,
    scheduler,
    random: opts.random ?? Math.random,
    logger,
    ...(metrics ? { metrics } : {}),
    userAgent: opts.userAgent ?? 'fa-mcp-sdk-webhooks',
  });
  const sender = createWebhookSender({ outbox, endpoints: [...endpoints.values()], now: () => scheduler.now(), queued: () => dispatcher.wake() });
  const sweep = () => void outbox.sweep(scheduler.now() - config.retentionMs).catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'webhook outbox sweep failed'));
  const sweepTimer = setInterval(sweep, Math.min(config.retentionMs, 3_600_000));
  sweepTimer.unref();
  if (endpoints.size > 0 && opts.autoStart !== false) dispatcher.start();
  if (endpoints.size > 0) logger.info({ endpoints: [...endpoints.keys()], store: opts.outbox ? 'custom' : config.store, allowPrivateNetworks: allowPrivate }, 'webhooks enabled');
  return {
    sender,
    outbox,
    dispatcher,
    endpoints: [...endpoints.keys()],
    listDead: (limit = 100) => outbox.list('dead', limit),
    async resend(ids) {
      const n = await outbox.resend(scheduler.now(), ids);
      if (n > 0) dispatcher.wake();
      return n;
    },
    async close() {
      clearInterval(sweepTimer);
      await dispatcher.close();
      await outbox.close();
    },
  };
}
