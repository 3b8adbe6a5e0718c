/** The `mcp.debug` keys: the JSON-lines trace sink and the built-in debug tools. */
import type { SchemaNode } from '../schema-node.js';

export const mcpDebugNode: SchemaNode = {
  type: 'object',
  description: 'Debugging aids (the DEBUG=mcp:* channels need no configuration).',
  additionalProperties: false,
  properties: {
    logFile: {
      type: 'string',
      default: '',
      description: 'Append every request and response as JSON lines to this file, secrets masked (empty: off).',
      'x-env': ['MCP_DEBUG_LOG_FILE'],
    },
    maxEntryBytes: {
      type: 'integer',
      minimum: 256,
      default: 16_384,
      description: 'Largest params/result/error payload written per trace line; larger ones are cut with a preview.',
      'x-env': ['MCP_DEBUG_MAX_ENTRY_BYTES'],
    },
    builtinTools: {
      type: 'boolean',
      default: false,
      description: 'Register the debug_tool tool that returns every CallToolResult shape (for testing clients).',
      'x-env': ['MCP_DEBUG_BUILTIN_TOOLS'],
    },
    allowInProduction: {
      type: 'boolean',
      default: false,
      description: 'Allow builtinTools when NODE_ENV=production (refused otherwise).',
      'x-env': ['MCP_DEBUG_ALLOW_IN_PRODUCTION'],
    },
  },
};

export interface McpDebugConfig {
  logFile: string;
  maxEntryBytes: number;
  builtinTools: boolean;
  allowInProduction: boolean;
}
