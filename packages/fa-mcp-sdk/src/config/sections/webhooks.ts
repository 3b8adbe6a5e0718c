/**
 * The `webhooks` section of the configuration schema: outbound webhooks in the
 * Standard Webhooks format, delivered at least once from an outbox (memory or
 * PostgreSQL), with retries, and refused to private networks in production.
 */
import { intSetting, type SchemaNode } from '../schema-node.js';

/** One receiver of webhooks, as configured. */
export interface WebhookEndpointConfig {
  /** Unique name (metrics, logs, the CLI). */
  name: string;
  /** http(s) URL events are POSTed to. */
  url: string;
  /** `whsec_<base64>` secrets, space separated (several during a rotation: one signature each). */
  secret?: string;
  /** Name of an environment variable holding `secret` (wins over `secret`). */
  secretEnv?: string;
  /** Event types sent here (`*` all, `task.*` a prefix); default: all. */
  events?: string[];
  /** Timeout of one attempt in ms; default `webhooks.timeoutMs`. */
  timeoutMs?: number;
  /** Extra request headers (never `webhook-*` or `content-type`). */
  headers?: Record<string, string>;
}

export interface WebhooksConfig {
  endpoints: WebhookEndpointConfig[];
  store: 'memory' | 'postgres';
  database: string;
  allowPrivateNetworks: boolean | null;
  taskEvents: boolean;
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  pollIntervalMs: number;
  leaseMs: number;
  concurrency: number;
  retentionMs: number;
}

const endpointNode: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
    url: { type: 'string', pattern: '^https?://' },
    secret: { type: 'string', 'x-secret': true },
    secretEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    events: { type: 'array', items: { type: 'string', minLength: 1 } },
    timeoutMs: { type: 'integer', minimum: 100, maximum: 120_000 },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const int = intSetting;

export const webhooksSection: SchemaNode = {
  type: 'object',
  description: 'Outbound webhooks (Standard Webhooks format) sent by tools (`webhooks.send`) and by the framework (task events).',
  additionalProperties: false,
  properties: {
    endpoints: {
      type: 'array',
      items: endpointNode,
      default: [],
      description:
        'Receivers: `{ name, url, secret | secretEnv, events?, timeoutMs?, headers? }`; secrets are `whsec_<base64>`, space separated to rotate; env value is a JSON array.',
      'x-env': ['WEBHOOKS_ENDPOINTS'],
    },
    store: {
      type: 'string',
      enum: ['memory', 'postgres'],
      default: 'memory',
      description: 'The outbox: this process (lost on restart), or PostgreSQL (survives a crash, shared by every instance, each event claimed by one).',
      'x-env': ['WEBHOOKS_STORE'],
    },
    database: { type: 'string', default: 'main', description: 'The db.postgres.dbs entry the postgres outbox uses.', 'x-env': ['WEBHOOKS_DATABASE'] },
    allowPrivateNetworks: {
      type: ['boolean', 'null'],
      default: null,
      description: 'Deliver to private, loopback and link-local addresses; null: only when NODE_ENV is not production.',
      'x-env': ['WEBHOOKS_ALLOW_PRIVATE_NETWORKS'],
    },
    taskEvents: {
      type: 'boolean',
      default: false,
      description: 'Send `task.completed`, `task.failed` and `task.cancelled` (task id, tool, caller subject) to the endpoints that take them.',
      'x-env': ['WEBHOOKS_TASK_EVENTS'],
    },
    maxAttempts: int(8, 1, 'Attempts of one event before it is marked dead.', 'WEBHOOKS_MAX_ATTEMPTS'),
    initialBackoffMs: int(1000, 10, 'Delay before the second attempt; doubled for each next one, with jitter.', 'WEBHOOKS_INITIAL_BACKOFF_MS'),
    maxBackoffMs: int(600_000, 10, 'Longest delay between two attempts (also caps Retry-After).', 'WEBHOOKS_MAX_BACKOFF_MS'),
    timeoutMs: int(10_000, 100, 'Timeout of one attempt of an endpoint without its own.', 'WEBHOOKS_TIMEOUT_MS'),
    pollIntervalMs: int(1000, 10, 'How often the outbox is read for due events (new events of this instance go at once).', 'WEBHOOKS_POLL_INTERVAL_MS'),
    leaseMs: int(60_000, 1000, 'How long an instance holds a claimed event; a crashed instance\'s events are taken over after it.', 'WEBHOOKS_LEASE_MS'),
    concurrency: int(4, 1, 'Deliveries in flight at once per instance.', 'WEBHOOKS_CONCURRENCY'),
    retentionMs: int(604_800_000, 60_000, 'How long delivered events are kept before the sweep deletes them (dead ones stay until resent).', 'WEBHOOKS_RETENTION_MS'),
  },
};
