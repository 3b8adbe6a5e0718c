/**
 * The everything server: the reference MCP "everything" server's tools, prompts, resources,
 * templates, completions, subscriptions, logging, tasks and icons, on both protocol revisions,
 * started through initMcpServer. `start.ts` runs it; tests start its built `dist/start.js`.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from 'fa-mcp-sdk';
import { everythingPrompts } from './prompts/index.js';
import { everythingResources, everythingTemplates } from './resources/index.js';
import { createRuntime, type EverythingRuntime } from './runtime.js';
import { ICONS } from './server/icons.js';
import { sharedStateOverrides } from './server/shared-state.js';
import { EVERYTHING_SCHEMA } from './settings.js';
import { everythingTools, toolsFor } from './tools/index.js';
import { eventTools, everythingEvents, startClock } from './events/index.js';

/** The package folder (holds config/, docs/ and package.json), from src/ or dist/ alike. */
export const EVERYTHING_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export type EverythingServerOptions = Pick<InitOptions, 'config' | 'handleSignals' | 'logDestination' | 'env' | 'nodeEnv'>;

export function everythingServerData(rt: EverythingRuntime, root = EVERYTHING_ROOT): McpServerData {
  return {
    serverInfo: {
      title: 'Everything',
      description: 'The reference MCP "everything" server on fa-mcp-sdk: every protocol feature, on 2025-era sessions and 2026-07-28 requests.',
      icons: ICONS.server,
    },
    instructions: [
      'Testing and demonstration server for MCP protocol features.',
      'Tools are listed by revision: toggle-* serve 2025-era sessions, simulate-research-query and the *-async tools run as tasks on 2026-07-28.',
      'Resources: demo://resource/dynamic/{text,blob}/{index}, demo://resource/static/document/<file>, demo://resource/collection/*;',
      'gzip-file-as-resource makes session resources (2025-era) or minted ones (2026-07-28).',
    ].join('\n'),
    tools: toolsFor([...everythingTools(rt), ...eventTools]),
    // MCP Events (2026-07-28): clock-tick, custom-event and alert (src/events/).
    events: everythingEvents,
    prompts: everythingPrompts,
    resources: everythingResources(root),
    resourceTemplates: everythingTemplates,
    // Log messages from handlers and sessions, every list may change, resources are subscribable.
    capabilities: { logging: true, listChanged: true, subscribe: true },
  };
}

/** Starts the server; with DB_MAIN_URL set, its state stores and bus default to PostgreSQL. */
export async function createEverythingServer(options: EverythingServerOptions = {}): Promise<McpServerHandle> {
  const rt = createRuntime();
  const env = options.env ?? process.env;
  const handle = await initMcpServer(everythingServerData(rt), {
    cwd: EVERYTHING_ROOT,
    extraSchema: EVERYTHING_SCHEMA,
    ...options,
    config: sharedStateOverrides(env, options.config),
  });
  rt.started(handle);
  startClock(handle);
  return handle;
}
