/**
 * The shared-state keys of `mcp`: the resumability event store, the
 * notification bus that carries resource updates and list changes between
 * instances, and minted resources. Each picks `memory` (one process) or
 * `postgres` (shared by every instance on the same database and schema).
 */
import type { SchemaNode } from '../schema-node.js';

const storeNode = (what: string, env: string): SchemaNode => ({
  type: 'string',
  enum: ['memory', 'postgres'],
  default: 'memory',
  description: what,
  'x-env': [env],
});

const databaseNode = (env: string): SchemaNode => ({
  type: 'string',
  default: 'main',
  description: 'The db.postgres.dbs entry the postgres store uses.',
  'x-env': [env],
});

export const resumabilitySection: SchemaNode = {
  type: 'object',
  description: 'Events kept for Last-Event-ID replay on 2025-era Streamable HTTP SSE streams (sessions only).',
  additionalProperties: false,
  properties: {
    store: storeNode('Where the events live: this process, or PostgreSQL (off the heap; retention shared by every instance).', 'MCP_RESUMABILITY_STORE'),
    database: databaseNode('MCP_RESUMABILITY_DATABASE'),
    maxEventsPerStream: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Events kept per SSE stream; older ones are dropped first.',
      'x-env': ['MCP_RESUMABILITY_MAX_EVENTS_PER_STREAM'],
    },
    maxStreams: {
      type: 'integer',
      minimum: 1,
      default: 10_000,
      description: 'Streams kept at most by the memory store (the oldest stream is dropped first); the postgres store is bounded by retentionMs.',
      'x-env': ['MCP_RESUMABILITY_MAX_STREAMS'],
    },
    retentionMs: {
      type: 'integer',
      minimum: 1000,
      default: 1_800_000,
      description: 'An event older than this is no longer replayed, and the sweep deletes it.',
      'x-env': ['MCP_RESUMABILITY_RETENTION_MS'],
    },
    sweepIntervalMs: {
      type: 'integer',
      minimum: 1000,
      default: 60_000,
      description: 'How often expired events are deleted.',
      'x-env': ['MCP_RESUMABILITY_SWEEP_INTERVAL_MS'],
    },
  },
};

export const notificationsSection: SchemaNode = {
  type: 'object',
  description: 'How resource updates and list changes reach connections served by other instances.',
  additionalProperties: false,
  properties: {
    bus: storeNode(
      'memory: only the connections of this process; postgres: every instance on the same database and schema, over LISTEN/NOTIFY.',
      'MCP_NOTIFICATIONS_BUS',
    ),
    database: databaseNode('MCP_NOTIFICATIONS_DATABASE'),
  },
};

export const mintedResourcesSection: SchemaNode = {
  type: 'object',
  description: 'Resources a tool creates at run time (mintResource) and returns as resource links, readable by URI until they expire.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: false,
      description: 'Serve minted resources (adds the minted resource template).',
      'x-env': ['MCP_MINTED_RESOURCES_ENABLED'],
    },
    store: storeNode('Where minted resources live: this process, or PostgreSQL (readable from every instance, kept across restarts).', 'MCP_MINTED_RESOURCES_STORE'),
    database: databaseNode('MCP_MINTED_RESOURCES_DATABASE'),
    uriPrefix: {
      type: 'string',
      default: '',
      description: 'Prefix of minted URIs (`<prefix><id>/<name>`); empty: `<server-name>://minted/`.',
      'x-env': ['MCP_MINTED_RESOURCES_URI_PREFIX'],
    },
    ttlMs: {
      type: 'integer',
      minimum: 1000,
      default: 600_000,
      description: 'How long a minted resource stays readable (a tool may ask for less, never more).',
      'x-env': ['MCP_MINTED_RESOURCES_TTL_MS'],
    },
    maxResources: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Minted resources kept at most; past it the oldest are dropped.',
      'x-env': ['MCP_MINTED_RESOURCES_MAX_RESOURCES'],
    },
    maxBytes: {
      type: 'integer',
      minimum: 1024,
      default: 67_108_864,
      description: 'Content bytes kept at most; past it the oldest are dropped (one resource larger than this is refused).',
      'x-env': ['MCP_MINTED_RESOURCES_MAX_BYTES'],
    },
    sweepIntervalMs: {
      type: 'integer',
      minimum: 1000,
      default: 60_000,
      description: 'How often expired minted resources are deleted.',
      'x-env': ['MCP_MINTED_RESOURCES_SWEEP_INTERVAL_MS'],
    },
  },
};

export type StateStoreKind = 'memory' | 'postgres';

export interface ResumabilityConfig {
  store: StateStoreKind;
  database: string;
  maxEventsPerStream: number;
  maxStreams: number;
  retentionMs: number;
  sweepIntervalMs: number;
}

export interface NotificationsConfig {
  bus: StateStoreKind;
  database: string;
}

export interface MintedResourcesConfig {
  enabled: boolean;
  store: StateStoreKind;
  database: string;
  uriPrefix: string;
  ttlMs: number;
  maxResources: number;
  maxBytes: number;
  sweepIntervalMs: number;
}
