/**
 * The configuration schema of fa-mcp-sdk: the single source of truth for every key.
 *
 * Every leaf carries `type`, `default`, `description` (one doc line) and `x-env`
 * (environment variables that set it, the first is canonical). Secrets carry
 * `x-secret: true`. Framework objects are closed (`additionalProperties: false`);
 * the root stays open so consumers can keep their own top-level keys.
 *
 * Adding a key: add its node here and its field to `AppConfig` in app-config.ts
 * (test/config/schema.test.ts fails until both agree). Defaults, env mapping,
 * validation, masking and the reference page all follow from the schema.
 */

import { agentTesterSection } from './sections/agent-tester.js';
import { consulSection } from './sections/consul.js';
import { dbSection } from './sections/db.js';
import { tracingSection } from './sections/tracing.js';
import { loggerSection } from './sections/logger.js';
import { mcpSection } from './sections/mcp.js';
import { webServerSection } from './sections/web-server.js';
import { webhooksSection } from './sections/webhooks.js';
import type { SchemaNode } from './schema-node.js';

export * from './schema-node.js';
export type { AppConfig } from './app-config.js';

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
    mcp: mcpSection,
    webServer: webServerSection,
    logger: loggerSection,
    db: dbSection,
    tracing: tracingSection,
    consul: consulSection,
    agentTester: agentTesterSection,
    webhooks: webhooksSection,
  },
};
