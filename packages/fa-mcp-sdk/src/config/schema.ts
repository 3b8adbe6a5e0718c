/**
 * The configuration schema of fa-mcp-sdk: the single source of truth for every key.
 *
 * Every leaf carries `type`, `default`, `description` (one doc line) and `x-env`
 * (environment variables that set it, the first is canonical). Secrets carry
 * `x-secret: true`. Framework objects are closed (`additionalProperties: false`);
 * the root stays open so consumers can keep their own top-level keys.
 *
 * Adding a key: add its node here and its field to `AppConfig` below
 * (test/config/schema.test.ts fails until both agree). Defaults, env mapping,
 * validation, masking and the reference page all follow from the schema.
 */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The subset of JSON Schema (2020-12) the config tooling understands, plus the `x-` annotations. */
export interface SchemaNode {
  type?: JsonType | JsonType[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  required?: string[];
  items?: SchemaNode;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  /** Environment variables that set this leaf; the first one is canonical and wins when several are set. */
  'x-env'?: string[];
  /** The value is a secret: masked by `maskConfig`, never logged or shown in `/health`. */
  'x-secret'?: boolean;
  /** Any other JSON Schema keyword (passed through to ajv untouched). */
  [keyword: string]: unknown;
}

export const configSchema: SchemaNode = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://fa-mcp-sdk/config.schema.json',
  title: 'fa-mcp-sdk configuration',
  type: 'object',
  properties: {
    name: {
      type: 'string',
      default: '',
      description: "Server name; empty means: take it from the consumer's package.json.",
      'x-env': ['MCP_SERVER_NAME'],
    },
    mcp: {
      type: 'object',
      description: 'MCP protocol and transport behaviour.',
      additionalProperties: false,
      properties: {
        transportType: {
          type: 'string',
          enum: ['http', 'stdio'],
          default: 'http',
          description: 'Transport the server listens on.',
          'x-env': ['MCP_TRANSPORT_TYPE'],
        },
        stateless: {
          type: 'boolean',
          default: false,
          description: 'Serve HTTP without sessions (every request stands alone).',
          'x-env': ['MCP_STATELESS'],
        },
        legacySse: {
          type: 'boolean',
          default: true,
          description: 'Also serve the legacy HTTP+SSE transport (`/sse` + `/messages`).',
          'x-env': ['MCP_LEGACY_SSE'],
        },
        responseMode: {
          type: 'string',
          enum: ['json', 'sse'],
          default: 'sse',
          description: 'How POSTs of the 2025-era Streamable HTTP transport are answered.',
          'x-env': ['MCP_RESPONSE_MODE'],
        },
        sessions: {
          type: 'object',
          description: 'Session bookkeeping (stateful HTTP).',
          additionalProperties: false,
          properties: {
            maxSessions: {
              type: 'integer',
              minimum: 1,
              default: 1000,
              description: 'Maximum number of concurrent sessions.',
              'x-env': ['MCP_MAX_SESSIONS'],
            },
            idleTimeoutMs: {
              type: 'integer',
              minimum: 1000,
              default: 1_800_000,
              description: 'A session idle for this long (ms) is closed.',
              'x-env': ['MCP_SESSION_IDLE_TIMEOUT_MS'],
            },
          },
        },
        limits: {
          type: 'object',
          description: 'Size and time limits.',
          additionalProperties: false,
          properties: {
            maxPayloadBytes: {
              type: 'integer',
              minimum: 1024,
              default: 1_048_576,
              description: 'Largest accepted request body, in bytes.',
              'x-env': ['MCP_MAX_PAYLOAD_BYTES'],
            },
            maxToolResultBytes: {
              type: 'integer',
              minimum: 1024,
              default: 10_485_760,
              description: 'Largest tool result, in bytes.',
              'x-env': ['MCP_MAX_TOOL_RESULT_BYTES'],
            },
            toolTimeoutMs: {
              type: 'integer',
              minimum: 1,
              default: 30_000,
              description: 'Default time limit of one tool call, in ms.',
              'x-env': ['MCP_TOOL_TIMEOUT_MS'],
            },
            toolTimeouts: {
              type: 'object',
              additionalProperties: { type: 'integer', minimum: 1 },
              default: {},
              description: 'Per-tool time limits in ms (tool name -> ms); env value is a JSON object.',
              'x-env': ['MCP_TOOL_TIMEOUTS'],
            },
          },
        },
        progress: {
          type: 'object',
          description: 'Progress notifications.',
          additionalProperties: false,
          properties: {
            throttleMs: {
              type: 'integer',
              minimum: 0,
              default: 100,
              description: 'Minimum interval between progress notifications of one call, in ms.',
              'x-env': ['MCP_PROGRESS_THROTTLE_MS'],
            },
          },
        },
        pagination: {
          type: 'object',
          description: 'Pagination of list results.',
          additionalProperties: false,
          properties: {
            pageSize: {
              type: 'integer',
              minimum: 1,
              maximum: 1000,
              default: 100,
              description: 'Items per page of tools/list, resources/list and prompts/list.',
              'x-env': ['MCP_PAGE_SIZE'],
            },
          },
        },
        excludeTools: {
          type: 'array',
          items: { type: 'string' },
          default: [],
          description: 'Names of tools not to expose; env value is a comma-separated list or JSON array.',
          'x-env': ['MCP_EXCLUDE_TOOLS'],
        },
        instructions: {
          type: 'object',
          description: 'Server instructions sent at initialize.',
          additionalProperties: false,
          properties: {
            budget: {
              type: 'integer',
              minimum: 64,
              default: 2048,
              description: 'Maximum size of the instructions text, in characters.',
              'x-env': ['MCP_INSTRUCTIONS_BUDGET'],
            },
          },
        },
      },
    },
    webServer: {
      type: 'object',
      description: 'The HTTP server.',
      additionalProperties: false,
      properties: {
        host: {
          type: 'string',
          default: '127.0.0.1',
          description: 'Interface to listen on.',
          'x-env': ['HOST', 'WEB_SERVER_HOST'],
        },
        port: {
          type: 'integer',
          minimum: 0,
          maximum: 65535,
          default: 3000,
          description: 'Port to listen on (0 picks a free port).',
          'x-env': ['PORT', 'WEB_SERVER_PORT'],
        },
        trustProxy: {
          type: 'boolean',
          default: false,
          description: 'Trust X-Forwarded-* headers from a reverse proxy.',
          'x-env': ['WEB_SERVER_TRUST_PROXY'],
        },
        hostValidation: {
          type: 'object',
          description: 'Host header validation (DNS rebinding protection).',
          additionalProperties: false,
          properties: {
            enabled: {
              type: 'boolean',
              default: true,
              description: 'Reject requests whose Host header is not allowed.',
              'x-env': ['WEB_SERVER_HOST_VALIDATION'],
            },
            allowedHosts: {
              type: 'array',
              items: { type: 'string' },
              default: [],
              description: 'Extra allowed Host values (localhost names are always allowed).',
              'x-env': ['WEB_SERVER_ALLOWED_HOSTS'],
            },
          },
        },
        allowedOrigins: {
          type: 'array',
          items: { type: 'string' },
          default: [],
          description: 'Allowed Origin values for browser requests (CORS).',
          'x-env': ['WEB_SERVER_ALLOWED_ORIGINS'],
        },
        shutdownGraceMs: {
          type: 'integer',
          minimum: 0,
          default: 10_000,
          description: 'Time given to in-flight requests on shutdown, in ms.',
          'x-env': ['SHUTDOWN_GRACE_MS'],
        },
      },
    },
    logger: {
      type: 'object',
      description: 'Logging.',
      additionalProperties: false,
      properties: {
        level: {
          type: 'string',
          enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
          default: 'info',
          description: 'Minimum level written.',
          'x-env': ['LOG_LEVEL'],
        },
        format: {
          type: 'string',
          enum: ['auto', 'json', 'pretty'],
          default: 'auto',
          description: 'Output format; auto: pretty when NODE_ENV=development, json otherwise.',
          'x-env': ['LOG_FORMAT'],
        },
      },
    },
  },
};

/** The validated configuration. Hand-written; must match `configSchema` (proved by a test). */
export interface AppConfig {
  name: string;
  mcp: {
    transportType: 'http' | 'stdio';
    stateless: boolean;
    legacySse: boolean;
    responseMode: 'json' | 'sse';
    sessions: {
      maxSessions: number;
      idleTimeoutMs: number;
    };
    limits: {
      maxPayloadBytes: number;
      maxToolResultBytes: number;
      toolTimeoutMs: number;
      toolTimeouts: Record<string, number>;
    };
    progress: {
      throttleMs: number;
    };
    pagination: {
      pageSize: number;
    };
    excludeTools: string[];
    instructions: {
      budget: number;
    };
  };
  webServer: {
    host: string;
    port: number;
    trustProxy: boolean;
    hostValidation: {
      enabled: boolean;
      allowedHosts: string[];
    };
    allowedOrigins: string[];
    shutdownGraceMs: number;
  };
  logger: {
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    format: 'auto' | 'json' | 'pretty';
  };
}

// ---------------------------------------------------------------------------
// Helpers for walking a schema (shared by defaults, env mapping, masking, docs).
// ---------------------------------------------------------------------------

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A section is an object node with declared `properties`; it is walked into. Anything else is a leaf. */
export function isSection(node: SchemaNode): node is SchemaNode & { properties: Record<string, SchemaNode> } {
  return isPlainObject(node.properties);
}

/** Calls `visit` for every leaf of the schema, depth first, in declaration order. */
export function forEachLeaf(
  schema: SchemaNode,
  visit: (path: string[], node: SchemaNode) => void,
  prefix: string[] = [],
): void {
  if (!isSection(schema)) return;
  for (const [key, child] of Object.entries(schema.properties)) {
    const path = [...prefix, key];
    if (isSection(child)) forEachLeaf(child, visit, path);
    else visit(path, child);
  }
}

/** Dotted paths of every leaf. */
export function leafPaths(schema: SchemaNode): string[] {
  const out: string[] = [];
  forEachLeaf(schema, (path) => out.push(path.join('.')));
  return out;
}

/** The schema node describing the value at `path` (through properties, additionalProperties and items). */
export function schemaNodeAt(schema: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema;
  for (const segment of path) {
    if (!node) return undefined;
    const declared: SchemaNode | undefined = node.properties?.[segment];
    if (declared) node = declared;
    else if (isPlainObject(node.additionalProperties)) node = node.additionalProperties as SchemaNode;
    else if (node.items && /^\d+$/.test(segment)) node = node.items;
    else return undefined;
  }
  return node;
}

/** A fresh object holding every `default` of the schema. */
export function schemaDefaults(schema: SchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  forEachLeaf(schema, (path, node) => {
    if (node.default === undefined) return;
    let target = out;
    for (const segment of path.slice(0, -1)) {
      const next = target[segment];
      if (isPlainObject(next)) target = next;
      else target = target[segment] = {};
    }
    target[path[path.length - 1] as string] = structuredClone(node.default);
  });
  return out;
}

/** Human wording of what a node accepts, e.g. `integer between 0 and 65535`, `one of "http", "stdio"`. */
export function describeExpected(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.const !== undefined) return `equal to ${JSON.stringify(node.const)}`;
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  let text = types.length ? types.join(' or ') : 'a valid value';
  if (types.includes('array') && node.items?.type) text = `array of ${describeExpected(node.items)}`;
  if (types.includes('object') && isPlainObject(node.additionalProperties) && !isSection(node)) {
    text = `object of ${describeExpected(node.additionalProperties as SchemaNode)}`;
  }
  const min = node.minimum ?? node.exclusiveMinimum;
  const max = node.maximum ?? node.exclusiveMaximum;
  const minOp = node.minimum !== undefined ? '>=' : '>';
  const maxOp = node.maximum !== undefined ? '<=' : '<';
  if (min !== undefined && max !== undefined && minOp === '>=' && maxOp === '<=') {
    text += ` between ${min} and ${max}`;
  } else {
    if (min !== undefined) text += ` ${minOp} ${min}`;
    if (max !== undefined) text += ` ${maxOp} ${max}`;
  }
  if (node.minLength !== undefined) text += ` of length >= ${node.minLength}`;
  if (node.maxLength !== undefined) text += ` of length <= ${node.maxLength}`;
  if (node.pattern !== undefined) text += ` matching /${node.pattern}/`;
  if (node.format !== undefined) text += ` in format "${node.format}"`;
  return text;
}
