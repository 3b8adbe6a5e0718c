/**
 * `fa-mcp webhooks list | resend`: the operator's view of the PostgreSQL
 * webhook outbox of a configuration (`webhooks.store: postgres`): list events
 * by status (dead by default) and put dead ones back for a fresh round of
 * attempts, which a running instance then delivers. Bodies are shown; no
 * secret is (the outbox never holds one).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import type { CoreLogger } from '../../core/core.js';
import { Databases } from '../../db/databases.js';
import { PostgresWebhookOutbox } from '../../webhooks/outbox-postgres.js';
import type { WebhookDeliveryStatus } from '../../webhooks/webhook-types.js';
import { action, CliUsageError, EXIT_OK, printOut, type CliIo } from '../cli-io.js';

interface OutboxOptions {
  cwd?: string;
  configDir?: string;
  nodeEnv?: string;
}

const silent: CoreLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};
const STATUSES: readonly WebhookDeliveryStatus[] = ['dead', 'pending', 'delivered'];

async function withOutbox<T>(io: CliIo, opts: OutboxOptions, body: (outbox: PostgresWebhookOutbox) => Promise<T>): Promise<T> {
  const cwd = resolve(io.cwd, opts.cwd ?? '.');
  const { config } = loadConfig({ cwd, env: io.env, ...(opts.configDir ? { configDir: opts.configDir } : {}), ...(opts.nodeEnv ? { nodeEnv: opts.nodeEnv } : {}) });
  if (config.webhooks.store !== 'postgres') {
    throw new CliUsageError('webhooks.store is "memory": that outbox lives in the server process (use handle.webhooks.listDead()/resend()); set WEBHOOKS_STORE=postgres');
  }
  const databases = new Databases({ config: config.db, logger: silent, cwd });
  try {
    const outbox = new PostgresWebhookOutbox(await databases.get(config.webhooks.database).pool());
    await outbox.migrate();
    return await body(outbox);
  } finally {
    await databases.close();
  }
}

export async function webhooksList(io: CliIo, opts: OutboxOptions & { status?: string; limit?: string; json?: boolean }): Promise<number> {
  const status = (opts.status ?? 'dead') as WebhookDeliveryStatus;
  if (!STATUSES.includes(status)) throw new CliUsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const limit = Number(opts.limit ?? 100);
  if (!Number.isInteger(limit) || limit < 1) throw new CliUsageError('--limit must be a positive integer');
  const list = await withOutbox(io, opts, (o) => o.list(status, limit));
  if (opts.json) {
    printOut(io, JSON.stringify(list, null, 2));
    return EXIT_OK;
  }
  if (list.length === 0) printOut(io, `no ${status} webhook events`);
  for (const d of list) {
    const when = new Date(d.updatedAt).toISOString();
    printOut(io, `${d.id}  ${d.endpoint}  ${d.type}  attempts=${d.attempts}  ${when}${d.lastError ? `  ${d.lastError}` : ''}`);
  }
  return EXIT_OK;
}

export async function webhooksResend(io: CliIo, ids: string[], opts: OutboxOptions & { all?: boolean }): Promise<number> {
  if (ids.length === 0 && !opts.all) throw new CliUsageError('name the webhook ids to re-send, or --all for every dead event');
  const n = await withOutbox(io, opts, (o) => o.resend(Date.now(), ids.length > 0 ? ids : undefined));
  printOut(io, `${n} dead webhook event${n === 1 ? '' : 's'} queued again`);
  return EXIT_OK;
}

export function registerWebhooksCommand(program: Command, io: () => CliIo): Command {
  const cmd = program.command('webhooks').description('List and re-send events of the PostgreSQL webhook outbox (webhooks.store: postgres)');
  const common = (c: Command) =>
    c
      .option('--cwd <dir>', 'project folder (default: the current one)')
      .option('--config-dir <dir>', 'configuration folder (default <cwd>/config)')
      .option('--node-env <name>', 'selects config/<name>.yaml (default NODE_ENV or development)');
  common(cmd.command('list').description('List events by status (dead by default), newest first'))
    .option('--status <status>', 'dead, pending or delivered', 'dead')
    .option('--limit <n>', 'at most this many', '100')
    .option('--json', 'print the events as JSON')
    .action(action(io, (ctx, opts: OutboxOptions & { status?: string; limit?: string; json?: boolean }) => webhooksList(ctx, opts)));
  common(cmd.command('resend').description('Queue dead events again (the given ids, or --all); a running instance delivers them'))
    .argument('[ids...]', 'webhook ids (webhook-id) to re-send')
    .option('--all', 'every dead event')
    .action(action(io, (ctx, ids: string[], opts: OutboxOptions & { all?: boolean }) => webhooksResend(ctx, ids, opts)));
  return cmd;
}
