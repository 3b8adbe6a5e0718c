/** The `mcp.tasks` section of the configuration schema: long-running tool calls as tasks. */
import type { SchemaNode } from '../schema-node.js';

export const tasksSection: SchemaNode = {
  type: 'object',
  description: 'Task-augmented execution of long-running tools (opt-in).',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      default: false,
      description: 'Serve tasks: the tasks capability on 2025-era connections and the io.modelcontextprotocol/tasks extension on 2026-07-28.',
      'x-env': ['MCP_TASKS_ENABLED'],
    },
    store: {
      type: 'string',
      enum: ['memory', 'postgres'],
      default: 'memory',
      description: 'Where tasks live: this process (lost on restart), or PostgreSQL (survives restarts, shared by every instance).',
      'x-env': ['MCP_TASKS_STORE'],
    },
    database: {
      type: 'string',
      default: 'main',
      description: 'The db.postgres.dbs entry the postgres store uses.',
      'x-env': ['MCP_TASKS_DATABASE'],
    },
    defaultTtlMs: {
      type: 'integer',
      minimum: 1000,
      default: 3_600_000,
      description: 'How long a task is kept after creation when the client asks for no TTL.',
      'x-env': ['MCP_TASKS_DEFAULT_TTL_MS'],
    },
    minTtlMs: { type: 'integer', minimum: 1000, default: 60_000, description: 'Smallest TTL a client may ask for.', 'x-env': ['MCP_TASKS_MIN_TTL_MS'] },
    maxTtlMs: { type: 'integer', minimum: 1000, default: 86_400_000, description: 'Largest TTL a client may ask for.', 'x-env': ['MCP_TASKS_MAX_TTL_MS'] },
    pollIntervalMs: {
      type: 'integer',
      minimum: 50,
      default: 1000,
      description: 'Poll interval suggested to clients.',
      'x-env': ['MCP_TASKS_POLL_INTERVAL_MS'],
    },
    maxTasks: {
      type: 'integer',
      minimum: 1,
      default: 10_000,
      description: 'Retained tasks at most; past it a new task is refused: -32003 (retry later) on a 2025-era call, a tool error (isError) on 2026-07-28.',
      'x-env': ['MCP_TASKS_MAX_TASKS'],
    },
    leaseMs: {
      type: 'integer',
      minimum: 1000,
      default: 30_000,
      description: 'A running task whose instance has not renewed its lease for this long is marked failed by another instance.',
      'x-env': ['MCP_TASKS_LEASE_MS'],
    },
    maxUpdateBytes: {
      type: 'integer',
      minimum: 1024,
      default: 65_536,
      description: 'Largest tasks/update a client may send (2026-07-28 tasks extension): its inputResponses serialized as JSON, in UTF-8 bytes; a larger one is refused with -32602.',
      'x-env': ['MCP_TASKS_MAX_UPDATE_BYTES'],
    },
    sweepIntervalMs: {
      type: 'integer',
      minimum: 1000,
      default: 60_000,
      description: 'How often expired tasks are deleted and orphaned ones recovered.',
      'x-env': ['MCP_TASKS_SWEEP_INTERVAL_MS'],
    },
  },
};
