/**
 * The `db` section of the configuration schema: PostgreSQL databases by name.
 * `db.postgres.dbs.main` is declared (every field has an env variable); more
 * databases are added under any other name with the same fields (YAML only).
 */
import type { SchemaNode } from '../schema-node.js';

/** One database connection, as configured. */
export interface DbConnectionConfig {
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  poolSize: number;
  connectionTimeoutMs: number;
  idleTimeoutMs: number;
  statementTimeoutMs: number;
  ssl: boolean;
  sslRejectUnauthorized: boolean;
  usedExtensions: string[];
  embedded: boolean;
  embeddedDataDir: string;
}

export interface DbSectionConfig {
  /** Run every request in an AsyncLocalStorage scope holding the server's databases, for the free helpers (db-scope.ts). */
  ambientScope: boolean;
  postgres: {
    dbs: { main: DbConnectionConfig } & Record<string, DbConnectionConfig>;
  };
}

type Field = Omit<SchemaNode, 'x-env'> & { env: string };

const fields: Record<keyof DbConnectionConfig, Field> = {
  url: {
    type: 'string',
    default: '',
    'x-secret': true,
    description: 'Connection URL (postgres://user:pass@host:port/db); when set it wins over host, port, user, password and database.',
    env: 'URL',
  },
  host: { type: 'string', default: '', description: 'Server host; empty (and no url) means: not configured, or embedded when `embedded` is true.', env: 'HOST' },
  port: { type: 'integer', minimum: 1, maximum: 65535, default: 5432, description: 'Server port.', env: 'PORT' },
  user: { type: 'string', default: '', description: 'User name.', env: 'USER' },
  password: { type: 'string', default: '', 'x-secret': true, description: 'Password.', env: 'PASSWORD' },
  database: { type: 'string', default: '', description: 'Database name.', env: 'NAME' },
  poolSize: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'Maximum connections in the pool.', env: 'POOL_SIZE' },
  connectionTimeoutMs: {
    type: 'integer',
    minimum: 100,
    default: 5000,
    description: 'How long to wait for a connection before the call fails as upstream unavailable, in ms.',
    env: 'CONNECTION_TIMEOUT_MS',
  },
  idleTimeoutMs: { type: 'integer', minimum: 0, default: 30_000, description: 'Idle connections are closed after this long, in ms (0: never).', env: 'IDLE_TIMEOUT_MS' },
  statementTimeoutMs: {
    type: 'integer',
    minimum: 0,
    default: 30_000,
    description: 'Server-side statement_timeout of every connection, in ms (0: none; not enforced by the embedded database).',
    env: 'STATEMENT_TIMEOUT_MS',
  },
  ssl: { type: 'boolean', default: false, description: 'Connect over TLS.', env: 'SSL' },
  sslRejectUnauthorized: { type: 'boolean', default: true, description: "Verify the server's TLS certificate.", env: 'SSL_REJECT_UNAUTHORIZED' },
  usedExtensions: {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z_][a-z0-9_-]{0,62}$' },
    default: [],
    description: 'Extensions created if missing at first connection (e.g. vector: pgvector types are registered too).',
    env: 'USED_EXTENSIONS',
  },
  embedded: {
    type: 'boolean',
    default: false,
    description: 'With no host and no url: run an embedded PostgreSQL (PGlite) in process, served on a loopback port.',
    env: 'EMBEDDED',
  },
  embeddedDataDir: {
    type: 'string',
    default: '',
    description: 'Folder of the embedded database (relative to the working directory); empty: in memory, lost on exit.',
    env: 'EMBEDDED_DATA_DIR',
  },
};

function connectionNode(envPrefix?: string): SchemaNode {
  const properties: Record<string, SchemaNode> = {};
  for (const [key, { env, ...node }] of Object.entries(fields)) {
    properties[key] = envPrefix ? { ...node, 'x-env': [`${envPrefix}${env}`] } : node;
  }
  return { type: 'object', additionalProperties: false, properties };
}

const mainNode = connectionNode('DB_MAIN_');
// The main database also answers to the usual DATABASE_URL.
(mainNode.properties as Record<string, SchemaNode>).url = {
  ...(mainNode.properties as Record<string, SchemaNode>).url,
  'x-env': ['DB_MAIN_URL', 'DATABASE_URL'],
};

export const dbSection: SchemaNode = {
  type: 'object',
  description: 'Databases of the tools (PostgreSQL, optionally embedded).',
  additionalProperties: false,
  properties: {
    ambientScope: {
      type: 'boolean',
      default: true,
      description:
        "With databases configured, run every request in an AsyncLocalStorage scope holding them, so the free helpers (queryMAIN, execDB, getDb …) find this server's databases. Where AsyncLocalStorage runs on async hooks (Node 20, and 22 by default) that runs a hook for every promise of the process: 7-12% more CPU per call in the bench on Node 20. false enters no scope: use handle.db instead of the free helpers.",
      'x-env': ['DB_AMBIENT_SCOPE'],
    },
    postgres: {
      type: 'object',
      description: 'PostgreSQL.',
      additionalProperties: false,
      properties: {
        dbs: {
          type: 'object',
          description: 'Databases by name; `main` is the one the *MAIN helpers use, other names are secondary databases.',
          properties: { main: { ...mainNode, description: 'The main database.' } },
          additionalProperties: connectionNode(),
        },
      },
    },
  },
};
