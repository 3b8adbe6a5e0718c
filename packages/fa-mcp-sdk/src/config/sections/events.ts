/**
 * The `mcp.events` section of the configuration schema: the MCP Events extension
 * (`io.modelcontextprotocol/events`) — where occurrences and webhook subscriptions live,
 * how long occurrences are kept, and the limits each caller is held to.
 */
import { intSetting, type SchemaNode } from '../schema-node.js';

export interface EventsConfig {
  store: 'memory' | 'postgres';
  database: string;
  retention: { maxEvents: number; maxAgeMs: number };
  maxPayloadBytes: number;
  maxSubscriptionsPerPrincipal: number;
  maxStreamsPerPrincipal: number;
  heartbeatMs: number;
  pollIntervalMs: number;
  maxEventsPerPoll: number;
  maxPollWaitMs: number;
  webhooks: {
    defaultTtlMs: number;
    minTtlMs: number;
    maxTtlMs: number;
    allowNoExpiry: boolean;
    allowPrivateNetworks: boolean | null;
    verifyTimeoutMs: number;
  };
  sweepIntervalMs: number;
}

const int = intSetting;

export const eventsSection: SchemaNode = {
  type: 'object',
  description: 'The MCP Events extension (poll, push, webhook) for the event types a server declares in `McpServerData.events`.',
  additionalProperties: false,
  properties: {
    store: {
      type: 'string',
      enum: ['memory', 'postgres'],
      default: 'memory',
      description:
        'Where occurrences, cursors and webhook subscriptions live: this process (lost on restart), or PostgreSQL (durable, shared by every instance; push reaches streams held by other instances over the notification bus).',
      'x-env': ['MCP_EVENTS_STORE'],
    },
    database: { type: 'string', default: 'main', description: 'The db.postgres.dbs entry the postgres store uses.', 'x-env': ['MCP_EVENTS_DATABASE'] },
    retention: {
      type: 'object',
      description: 'How many occurrences are kept for replay (per event type), and for how long.',
      additionalProperties: false,
      properties: {
        maxEvents: int(10_000, 1, 'Occurrences kept per event type; older ones are dropped first (a cursor behind them gets truncated: true).', 'MCP_EVENTS_RETENTION_MAX_EVENTS'),
        maxAgeMs: int(86_400_000, 1000, 'Occurrences older than this are dropped by the sweep, with their delivered webhook deliveries.', 'MCP_EVENTS_RETENTION_MAX_AGE_MS'),
      },
    },
    maxPayloadBytes: int(65_536, 64, 'Largest payload (JSON bytes) an emit may carry; a larger one is refused at emit.', 'MCP_EVENTS_MAX_PAYLOAD_BYTES'),
    maxSubscriptionsPerPrincipal: int(100, 1, 'Webhook subscriptions one principal may hold (events/subscribe past it: -32013).', 'MCP_EVENTS_MAX_SUBSCRIPTIONS_PER_PRINCIPAL'),
    maxStreamsPerPrincipal: int(20, 1, 'events/stream requests one principal may hold open on one instance (past it: -32013).', 'MCP_EVENTS_MAX_STREAMS_PER_PRINCIPAL'),
    heartbeatMs: int(15_000, 50, 'Interval of notifications/events/heartbeat on a quiet push stream (the spec asks for at most 30 s).', 'MCP_EVENTS_HEARTBEAT_MS'),
    pollIntervalMs: int(5000, 100, 'nextPollMs suggested to poll clients.', 'MCP_EVENTS_POLL_INTERVAL_MS'),
    maxEventsPerPoll: int(100, 1, 'Events one events/poll returns at most (a smaller maxEvents wins); the rest come with hasMore: true.', 'MCP_EVENTS_MAX_EVENTS_PER_POLL'),
    maxPollWaitMs: int(30_000, 0, 'Longest a poll with timeoutMs is held open waiting for an event (0: polls never wait).', 'MCP_EVENTS_MAX_POLL_WAIT_MS'),
    webhooks: {
      type: 'object',
      description: 'Webhook subscriptions (events/subscribe): their lifetime and where deliveries may go. Retries, leases and timeouts are those of `webhooks`.',
      additionalProperties: false,
      properties: {
        defaultTtlMs: int(3_600_000, 1000, 'Lifetime granted when the client suggests none.', 'MCP_EVENTS_WEBHOOK_DEFAULT_TTL_MS'),
        minTtlMs: int(60_000, 1000, 'Shortest lifetime granted (a shorter suggestion is raised to it).', 'MCP_EVENTS_WEBHOOK_MIN_TTL_MS'),
        maxTtlMs: int(86_400_000, 1000, 'Longest lifetime granted (a longer suggestion is lowered to it).', 'MCP_EVENTS_WEBHOOK_MAX_TTL_MS'),
        allowNoExpiry: {
          type: 'boolean',
          default: false,
          description: 'Grant no expiry (refreshBefore: null) to a client that asks for it with ttlMs: null; needs the postgres store.',
          'x-env': ['MCP_EVENTS_WEBHOOK_ALLOW_NO_EXPIRY'],
        },
        allowPrivateNetworks: {
          type: ['boolean', 'null'],
          default: null,
          description: 'Accept callback URLs on private, loopback and link-local addresses (and plain http to loopback); null: only when NODE_ENV is not production.',
          'x-env': ['MCP_EVENTS_WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
        },
        verifyTimeoutMs: int(5000, 100, 'Timeout of the verification POST sent to a new callback URL before delivery starts.', 'MCP_EVENTS_WEBHOOK_VERIFY_TIMEOUT_MS'),
      },
    },
    sweepIntervalMs: int(60_000, 100, 'How often expired occurrences and lapsed webhook subscriptions are deleted.', 'MCP_EVENTS_SWEEP_INTERVAL_MS'),
  },
};
