/**
 * The webhooks example: one tool, `emit_event`, that sends `{ type, data }`
 * to the endpoint of env WEBHOOK_URL, signed with WEBHOOK_SECRET
 * (`whsec_<base64>`). The outbox is in memory, or in PostgreSQL with
 * WEBHOOKS_STORE=postgres and DB_MAIN_URL (then it survives a crash and is
 * shared by every instance).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initMcpServer, type InitOptions, type ITool, type McpServerData, type McpServerHandle } from 'fa-mcp-sdk';

/** The package folder (holds config/ and package.json), from src/ or dist/ alike. */
export const WEBHOOKS_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const emitEventTool: ITool = {
  name: 'emit_event',
  title: 'Emit an event',
  description: 'Sends an event to the configured webhook endpoint; answers once it is queued in the outbox (delivery is retried until it succeeds).',
  inputSchema: {
    type: 'object',
    properties: {
      type: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$', description: 'Event type, e.g. report.ready' },
      data: { type: 'object', description: 'The event data' },
      idempotencyKey: { type: 'string', description: 'Optional: the same key from the same caller queues the event once (its webhook-id is derived from the caller and the key)' },
    },
    required: ['type', 'data'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { id: { type: 'string' }, endpoints: { type: 'array', items: { type: 'string' } } },
    required: ['id', 'endpoints'],
  },
  handler: async ({ arguments: args, webhooks }) => {
    const key = typeof args.idempotencyKey === 'string' ? { idempotencyKey: args.idempotencyKey } : {};
    const queued = await webhooks.send(String(args.type), args.data as Record<string, unknown>, key);
    return { content: [{ type: 'text', text: `queued ${queued.id} for ${queued.endpoints.join(', ') || 'no endpoint'}` }], structuredContent: { ...queued } };
  },
};

export const webhooksServerData: McpServerData = {
  serverInfo: { title: 'fa-mcp-sdk webhooks example', description: 'emit_event sends signed, retried, durable webhooks.' },
  tools: [emitEventTool],
};

export type WebhooksServerOptions = Pick<InitOptions, 'config' | 'handleSignals' | 'logDestination' | 'env' | 'nodeEnv'>;

/** Starts the server; the endpoint is taken from WEBHOOK_URL / WEBHOOK_SECRET of `options.env` (default process.env). */
export function createWebhooksServer(options: WebhooksServerOptions = {}): Promise<McpServerHandle> {
  const env = options.env ?? process.env;
  const url = env.WEBHOOK_URL;
  if (!url) throw new Error('WEBHOOK_URL is not set (the endpoint emit_event sends to)');
  if (!env.WEBHOOK_SECRET) throw new Error('WEBHOOK_SECRET is not set (whsec_<base64>)');
  const endpoints = [{ name: 'receiver', url, secretEnv: 'WEBHOOK_SECRET' }];
  const config = { ...options.config, webhooks: { ...(options.config?.webhooks as object | undefined), endpoints } };
  return initMcpServer(webhooksServerData, { cwd: WEBHOOKS_ROOT, ...options, env, config });
}
