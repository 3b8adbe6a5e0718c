/**
 * The `mcp.capabilities` section: what the server declares at `initialize`
 * (2025-11-25) and `server/discover` (2026-07-28) beyond the lists it serves.
 * `auto` derives each flag from what the server does (protocol/capabilities.ts);
 * true or false overrides the derivation.
 */
import type { SchemaNode } from '../schema-node.js';

export type CapabilitySetting = 'auto' | boolean;

export interface CapabilitiesConfig {
  logging: CapabilitySetting;
  listChanged: CapabilitySetting;
  subscribe: CapabilitySetting;
}

const setting = (description: string, env: string): SchemaNode => ({
  type: ['boolean', 'string'],
  enum: ['auto', true, false],
  default: 'auto',
  description,
  'x-env': [env],
});

export const capabilitiesSection: SchemaNode = {
  type: 'object',
  description: 'Capabilities the server declares (initialize and server/discover alike); auto declares only what the server does.',
  additionalProperties: false,
  properties: {
    logging: setting(
      'Declare `logging` (and serve logging/setLevel on 2025-era connections). auto: only when McpServerData.capabilities.logging is true; undeclared, client.log() in a handler sends nothing.',
      'MCP_CAPABILITIES_LOGGING',
    ),
    listChanged: setting(
      'Declare `listChanged` on the tools, prompts and resources lists. auto: tools and resources when they are a function (dynamic), and each list McpServerData.capabilities.listChanged names; notifyListChanged() on an undeclared list throws.',
      'MCP_CAPABILITIES_LIST_CHANGED',
    ),
    subscribe: setting(
      'Declare `resources.subscribe` (and serve resources/subscribe and unsubscribe; 2026-07-28 listen streams honour resource subscriptions only then). auto: only when McpServerData.capabilities.subscribe is true; notifyResourceUpdated() throws while undeclared.',
      'MCP_CAPABILITIES_SUBSCRIBE',
    ),
  },
};
