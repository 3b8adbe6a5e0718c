/**
 * The `mcp.audit` section of the configuration schema: one hash-chained audit record per request
 * (and per task change), written to a JSON Lines file or stream, or to an append-only PostgreSQL
 * table, synchronously (the answer waits for the record) or in batches (FA-MCP-SDK-DOC/13-audit-trail.md).
 */
import { intSetting, type SchemaNode } from '../schema-node.js';

export type AuditSinkKind = 'off' | 'jsonl' | 'postgres';
export type AuditMode = 'sync' | 'async';
export type AuditArgumentsMode = 'none' | 'digest' | 'masked';

export interface AuditConfig {
  sink: AuditSinkKind;
  file: string;
  mode: AuditMode;
  arguments: AuditArgumentsMode;
  database: string;
  instance: string;
  retentionDays: number;
  queueSize: number;
  batchSize: number;
  windowMs: number;
  maxExtraBytes: number;
  otel: boolean;
  anchors: {
    key: string;
    intervalMs: number;
  };
}

const int = (def: number, minimum: number, maximum: number, description: string, env: string): SchemaNode => intSetting(def, minimum, description, env, maximum);

export const auditSection: SchemaNode = {
  type: 'object',
  description: 'The audit trail: one hash-chained record per request and per task change (who, what, through which tool, with what outcome), see 13-audit-trail.',
  additionalProperties: false,
  properties: {
    sink: {
      type: 'string',
      enum: ['off', 'jsonl', 'postgres'],
      default: 'off',
      description:
        'Where records go: off (none), jsonl (one JSON object per line to mcp.audit.file), or postgres (the append-only table fa_mcp_audit in mcp.audit.database, created at start). Either way each record is also an OpenTelemetry log record when a LoggerProvider is registered (mcp.audit.otel).',
      'x-env': ['MCP_AUDIT_SINK'],
    },
    file: {
      type: 'string',
      minLength: 1,
      default: 'stderr',
      description: 'For sink jsonl: a file path (appended to; relative to the working folder), `stderr`, or `stdout` (refused when mcp.transportType is stdio: stdout carries the protocol).',
      'x-env': ['MCP_AUDIT_FILE'],
    },
    mode: {
      type: 'string',
      enum: ['sync', 'async'],
      default: 'async',
      description:
        'sync: the answer to a request is sent only once its record is durable (fsync of the file, commit of the row); a request whose record cannot be written fails with -32006. async: records are written in batches from a bounded queue; records the queue cannot hold are dropped, counted (mcp_audit_dropped_total) and logged.',
      'x-env': ['MCP_AUDIT_MODE'],
    },
    arguments: {
      type: 'string',
      enum: ['none', 'digest', 'masked'],
      default: 'digest',
      description:
        'What a record holds of the request\'s arguments: none; digest (the SHA-256 of their canonical JSON, to prove later what was sent without keeping it); masked (the arguments with every credential-like value replaced by *** under the masking rules of logs).',
      'x-env': ['MCP_AUDIT_ARGUMENTS'],
    },
    database: {
      type: 'string',
      default: 'main',
      description: 'The db.postgres.dbs entry the postgres sink writes to (main: DB_MAIN_URL).',
      'x-env': ['MCP_AUDIT_DATABASE'],
    },
    instance: {
      type: 'string',
      default: '',
      description: 'This instance\'s name in its records; empty: the host name (and the HTTP port). Each process start opens a new chain of records that names the instance\'s previous one.',
      'x-env': ['MCP_AUDIT_INSTANCE'],
    },
    retentionDays: int(0, 0, 36_500, 'Sink postgres: records older than this many days are pruned (hourly, by one instance at a time); the chain stays verifiable from a checkpoint that takes their place. 0 keeps every record.', 'MCP_AUDIT_RETENTION_DAYS'),
    queueSize: int(10_000, 1, 10_000_000, 'Most records waiting to be written; past it async drops (and counts) new records, sync fails the request with -32006.', 'MCP_AUDIT_QUEUE_SIZE'),
    batchSize: int(500, 1, 10_000, 'Most records written in one append (one fsync, one INSERT).', 'MCP_AUDIT_BATCH_SIZE'),
    windowMs: int(200, 1, 60_000, 'Async: the longest a record waits in the queue before its batch is written (ms).', 'MCP_AUDIT_WINDOW_MS'),
    maxExtraBytes: int(4096, 0, 1_048_576, 'Largest JSON of the fields a handler adds to its record (params.audit.set); past it the fields are replaced by a note of their size.', 'MCP_AUDIT_MAX_EXTRA_BYTES'),
    otel: {
      type: 'boolean',
      default: true,
      description: 'Also emit each record as an OpenTelemetry log record when @opentelemetry/api-logs is installed and a LoggerProvider is registered.',
      'x-env': ['MCP_AUDIT_OTEL'],
    },
    anchors: {
      type: 'object',
      description: 'Signed anchors: the head of the chain signed at intervals and at shutdown, so a cut tail and a rewritten chain are detected by `fa-mcp audit verify`.',
      additionalProperties: false,
      properties: {
        key: {
          type: 'string',
          default: '',
          description:
            'The HMAC-SHA256 key anchors, chain starts and retention checkpoints are signed with (at least 32 characters; keep it where the people who could edit the records cannot read it, and give it to verify). Empty: no anchors.',
          'x-env': ['MCP_AUDIT_ANCHOR_KEY'],
          'x-secret': true,
        },
        intervalMs: int(60_000, 1000, 86_400_000, 'How often the head of the chain is anchored while records are written (ms).', 'MCP_AUDIT_ANCHOR_INTERVAL_MS'),
      },
    },
  },
};
