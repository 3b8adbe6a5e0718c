/** The `consul` section: service registration and discovery. */
import type { SchemaNode } from '../schema-node.js';

export const consulSection: SchemaNode = {
  type: 'object',
  description: 'Consul: register this instance with a health check, resolve other services.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: false,
      description: 'Register with the Consul agent on start and deregister on shutdown.',
      'x-env': ['CONSUL_ENABLED'],
    },
    agent: {
      type: 'object',
      description: 'The Consul agent to talk to.',
      additionalProperties: false,
      properties: {
        host: { type: 'string', default: '127.0.0.1', description: 'Agent host.', 'x-env': ['CONSUL_HOST', 'CONSUL_AGENT_HOST'] },
        port: { type: 'integer', minimum: 1, maximum: 65535, default: 8500, description: 'Agent HTTP API port.', 'x-env': ['CONSUL_PORT', 'CONSUL_AGENT_PORT'] },
        secure: { type: 'boolean', default: false, description: 'Use HTTPS to reach the agent.', 'x-env': ['CONSUL_SECURE'] },
        token: { type: 'string', default: '', description: 'ACL token sent to the agent.', 'x-env': ['CONSUL_HTTP_TOKEN', 'CONSUL_TOKEN'], 'x-secret': true },
        timeoutMs: { type: 'integer', minimum: 100, default: 5000, description: 'Time limit of one agent call, in ms.', 'x-env': ['CONSUL_TIMEOUT_MS'] },
      },
    },
    service: {
      type: 'object',
      description: 'How this instance is registered.',
      additionalProperties: false,
      properties: {
        name: { type: 'string', default: '', description: 'Service name (empty: the server name).', 'x-env': ['CONSUL_SERVICE_NAME'] },
        id: { type: 'string', default: '', description: 'Instance id (empty: <name>-<host>-<port>, unique per instance).', 'x-env': ['CONSUL_SERVICE_ID'] },
        tags: { type: 'array', items: { type: 'string' }, default: [], description: 'Service tags.', 'x-env': ['CONSUL_SERVICE_TAGS'] },
        meta: {
          type: 'object',
          additionalProperties: { type: 'string' },
          default: {},
          description: 'Service meta (string values; version and sdk are added); env value is a JSON object.',
          'x-env': ['CONSUL_SERVICE_META'],
        },
        address: {
          type: 'string',
          default: '',
          description: 'Address others reach this instance at (empty: webServer.host unless it is a wildcard, else the first external IPv4).',
          'x-env': ['CONSUL_SERVICE_ADDRESS'],
        },
        port: { type: 'integer', minimum: 0, maximum: 65535, default: 0, description: 'Port others reach it at (0: the port the server listens on).', 'x-env': ['CONSUL_SERVICE_PORT'] },
      },
    },
    check: {
      type: 'object',
      description: 'The HTTP health check Consul runs against this instance.',
      additionalProperties: false,
      properties: {
        path: { type: 'string', pattern: '^/', default: '/health', description: 'Path Consul polls.', 'x-env': ['CONSUL_CHECK_PATH'] },
        interval: { type: 'string', pattern: '^\\d+(ms|s|m|h)$', default: '10s', description: 'How often Consul polls it.', 'x-env': ['CONSUL_CHECK_INTERVAL'] },
        timeout: { type: 'string', pattern: '^\\d+(ms|s|m|h)$', default: '5s', description: 'Time limit of one poll.', 'x-env': ['CONSUL_CHECK_TIMEOUT'] },
        deregisterCriticalServiceAfter: {
          type: 'string',
          pattern: '^\\d+(ms|s|m|h)$',
          default: '1m',
          description: 'Consul removes the instance after it is critical for this long.',
          'x-env': ['CONSUL_DEREGISTER_AFTER'],
        },
      },
    },
    reregisterIntervalMs: {
      type: 'integer',
      minimum: 100,
      default: 15_000,
      description: 'How often the agent is asked whether this instance is still registered (re-registers after a Consul restart).',
      'x-env': ['CONSUL_REREGISTER_INTERVAL_MS'],
    },
    accessPoints: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['service'],
        properties: {
          service: { type: 'string', minLength: 1 },
          tag: { type: 'string' },
          dc: { type: 'string' },
          passingOnly: { type: 'boolean' },
        },
      },
      default: {},
      description: 'Other services to resolve by name: { key: { service, tag?, dc?, passingOnly? } }; env value is a JSON object.',
      'x-env': ['CONSUL_ACCESS_POINTS'],
    },
    cacheTtlMs: {
      type: 'integer',
      minimum: 0,
      default: 30_000,
      description: 'How long a resolved address list is reused, in ms.',
      'x-env': ['CONSUL_CACHE_TTL_MS'],
    },
  },
};

export interface ConsulAccessPoint {
  service: string;
  tag?: string;
  dc?: string;
  passingOnly?: boolean;
}

export interface ConsulConfig {
  enabled: boolean;
  agent: { host: string; port: number; secure: boolean; token: string; timeoutMs: number };
  service: { name: string; id: string; tags: string[]; meta: Record<string, string>; address: string; port: number };
  check: { path: string; interval: string; timeout: string; deregisterCriticalServiceAfter: string };
  reregisterIntervalMs: number;
  accessPoints: Record<string, ConsulAccessPoint>;
  cacheTtlMs: number;
}
