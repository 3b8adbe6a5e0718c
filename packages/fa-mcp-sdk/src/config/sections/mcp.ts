/** The `mcp` section of the configuration schema: protocol and transport behaviour. */
import type { SchemaNode } from '../schema-node.js';
import { tasksSection } from './tasks.js';
import { eventsSection } from './events.js';
import { mintedResourcesSection, notificationsSection, resumabilitySection } from './state.js';
import { mcpDebugNode } from './mcp-debug.js';
import { cacheHintsSection, requestStateSection } from './protocol-2026.js';
import { capabilitiesSection } from './capabilities.js';
import { auditSection } from './audit.js';

/** One budget of `mcp.rateLimit.perTool` / `mcp.rateLimit.methods` (windowMs defaults to the general one). */
const budgetNode: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  required: ['maxRequests'],
  properties: { maxRequests: { type: 'integer', minimum: 1 }, windowMs: { type: 'integer', minimum: 1000 } },
};

export const mcpSection: SchemaNode = {
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
    httpErrorStatus: {
      type: 'boolean',
      default: false,
      description: 'Answer rate-limit, timeout, payload, upstream and forbidden JSON-RPC errors with HTTP 429/504/413/503/403 instead of 200. Off by default: the official MCP clients treat non-2xx as a transport failure. Retry-After is sent either way.',
      'x-env': ['MCP_HTTP_ERROR_STATUS'],
    },
    fastPath: {
      type: 'boolean',
      default: true,
      description:
        'Serve plain tools/call, prompts/get, resources/read and completion/complete requests over HTTP on a fast path: 2026-07-28 requests without building an SDK server per request, 2025-era session requests without the SDK session transport (same answers, a fraction of the cost; see 07-testing-and-operations). On stdio, a 2025-era connection\'s first answers (initialize, ping, the lists) come before the SDK is loaded (cold start). false sends every request through the SDK.',
      'x-env': ['MCP_FAST_PATH'],
    },
    stdio: {
      type: 'object',
      description: 'The stdio transport.',
      additionalProperties: false,
      properties: {
        consoleToStderr: {
          type: 'boolean',
          default: true,
          description:
            "While a stdio server speaks JSON-RPC on the process's stdout, console.log, console.info, console.debug and the rest of the global console write to stderr, so a stray print cannot break the client's stream; restored when the server stops. A write to process.stdout itself is not redirected. false leaves the console alone.",
          'x-env': ['MCP_STDIO_CONSOLE_TO_STDERR'],
        },
      },
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
        maxPerCaller: {
          type: 'integer',
          minimum: 1,
          default: 100,
          description:
            'Most concurrent sessions (and legacy SSE streams) one caller holds: its subject, or its address without authentication. A caller past it loses its own oldest idle session; at maxSessions the caller holding the most gives way, so a flood of initialize evicts only the flooder.',
          'x-env': ['MCP_MAX_SESSIONS_PER_CALLER'],
        },
        idleTimeoutMs: {
          type: 'integer',
          minimum: 1000,
          default: 1_800_000,
          description: 'A session idle for this long (ms) is closed.',
          'x-env': ['MCP_SESSION_IDLE_TIMEOUT_MS'],
        },
        store: {
          type: 'string',
          enum: ['memory', 'postgres'],
          default: 'memory',
          description:
            'Where 2025-era sessions live: this process (an id from another instance is unknown), or PostgreSQL, so any instance restores and serves a session another one opened (needs mcp.notifications.bus: postgres; see 12-scaling-out).',
          'x-env': ['MCP_SESSIONS_STORE'],
        },
        database: {
          type: 'string',
          default: 'main',
          description: 'The db.postgres.dbs entry the postgres session store uses (main: DB_MAIN_URL).',
          'x-env': ['MCP_SESSIONS_DATABASE'],
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
          description: 'Largest accepted request body (HTTP) or message line (stdio), in bytes.',
          'x-env': ['MCP_MAX_PAYLOAD_BYTES'],
        },
        maxJsonDepth: {
          type: 'integer',
          minimum: 8,
          maximum: 1000,
          default: 100,
          description: 'Deepest nesting of arrays and objects accepted in one message; deeper is refused before parsing.',
          'x-env': ['MCP_MAX_JSON_DEPTH'],
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
    validation: {
      type: 'object',
      description: 'How tool calls with arguments that fail the inputSchema are answered.',
      additionalProperties: false,
      properties: {
        argumentErrors: {
          type: 'string',
          enum: ['result', 'protocol'],
          default: 'result',
          description:
            'result: a tool result with isError true, the message (field and reason) as its text and { field, reason } under _meta["fa-mcp/validation"], which the model reads and corrects itself from (the MCP revisions list input validation errors among tool execution errors). protocol: JSON-RPC -32602 with error.data { field, reason, errors } (many agent frameworks hide its text from the model). The handler never runs either way; unknown tools and malformed params are -32602 in both.',
          'x-env': ['MCP_ARGUMENT_ERRORS'],
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
        cursorSecret: {
          type: 'string',
          default: '',
          description:
            'Key of the MAC that pagination cursors carry; instances behind one load balancer must share it (a cursor from another instance is refused otherwise). Empty: a random key per process (cursors do not survive a restart).',
          'x-env': ['MCP_PAGINATION_CURSOR_SECRET'],
          'x-secret': true,
        },
      },
    },
    rateLimit: {
      type: 'object',
      description: 'Rate limits for every MCP request and concurrency caps for tool calls (on by default with a generous budget).',
      additionalProperties: false,
      properties: {
        enabled: {
          type: 'boolean',
          default: true,
          description: 'Apply the limits below.',
          'x-env': ['MCP_RATE_LIMIT_ENABLED'],
        },
        scope: {
          type: 'string',
          enum: ['ip', 'subject', 'global'],
          default: 'ip',
          description: 'Whose budget a call counts against: the client address, the authenticated subject (address when anonymous), or one shared budget.',
          'x-env': ['MCP_RATE_LIMIT_SCOPE'],
        },
        maxRequests: {
          type: 'integer',
          minimum: 1,
          default: 1200,
          description: 'Requests of any method (tools/call, prompts/get, resources/read, completion/complete, lists …; not the handshake: initialize, server/discover) allowed per window and scope key.',
          'x-env': ['MCP_RATE_LIMIT_MAX_REQUESTS'],
        },
        windowMs: {
          type: 'integer',
          minimum: 1000,
          default: 60_000,
          description: 'Length of the window, in ms.',
          'x-env': ['MCP_RATE_LIMIT_WINDOW_MS'],
        },
        perTool: {
          type: 'object',
          additionalProperties: budgetNode,
          default: {},
          description: 'Per-tool budgets `{ tool_name: { maxRequests, windowMs } }`, counted in addition to the general one.',
          'x-env': ['MCP_RATE_LIMIT_PER_TOOL'],
        },
        methods: {
          type: 'object',
          additionalProperties: budgetNode,
          default: {},
          description:
            'Per-method budgets `{ "prompts/get": { maxRequests, windowMs } }` (any MCP or extension method), counted in addition to the general one; env value is a JSON object.',
          'x-env': ['MCP_RATE_LIMIT_METHODS'],
        },
        maxConcurrentPerSubject: {
          type: 'integer',
          minimum: 0,
          default: 32,
          description: 'Tool calls one caller may have in flight at once (0: unlimited).',
          'x-env': ['MCP_MAX_CONCURRENT_PER_SUBJECT'],
        },
        store: {
          type: 'string',
          enum: ['memory', 'postgres'],
          default: 'memory',
          description: 'Where window counters live: this process, or PostgreSQL shared by every instance.',
          'x-env': ['MCP_RATE_LIMIT_STORE'],
        },
        database: {
          type: 'string',
          default: 'main',
          description: 'The db.postgres.dbs entry the postgres store uses.',
          'x-env': ['MCP_RATE_LIMIT_DATABASE'],
        },
      },
    },
    tasks: tasksSection,
    events: eventsSection,
    resumability: resumabilitySection,
    notifications: notificationsSection,
    mintedResources: mintedResourcesSection,
    tools: {
      type: 'object',
      description: 'Tool definitions.',
      additionalProperties: false,
      properties: {
        nameRule: {
          type: 'string',
          enum: ['snake_case', 'mcp'],
          default: 'snake_case',
          description:
            'The rule tool names must follow. snake_case: `TOOL_NAME_PATTERN`, a lower-case letter then lower-case letters, digits and underscores, 1-63 characters. mcp: `MCP_TOOL_NAME_PATTERN`, the MCP revisions\' rule, 1-128 characters of A-Z a-z 0-9 _ - . (get-sum, admin.tools.list). Static tools are checked at start, tools given as a function when first listed or called.',
          'x-env': ['MCP_TOOL_NAME_RULE'],
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
    capabilities: capabilitiesSection,
    requestState: requestStateSection,
    cacheHints: cacheHintsSection,
    debug: mcpDebugNode,
    audit: auditSection,
  },
};
