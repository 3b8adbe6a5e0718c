/**
 * Whether the Agent Tester runs, and its mounting on the HTTP server.
 *
 * The rule: `agentTester.enabled: auto` (the default) turns it on only when
 * NODE_ENV is `development` (what the loader assumes when NODE_ENV is unset);
 * `true` turns it on in any environment, with a warning in production; `false`
 * turns it off. It needs the HTTP transport.
 */
import type { Express, RequestHandler } from 'express';
import type { AppConfig } from '../config/schema.js';
import type { CoreLogger } from '../core/core.js';
import { createChatCompletionsClient } from './chat-completions-client.js';
import { isAgentTesterEnabled } from './enabled.js';
import type { ChatModel } from './chat-types.js';
import { MissingPackageError } from '../core/optional-package.js';
import { loadMcpClient, type SelfConnectionEra } from './mcp-connection.js';

export { isAgentTesterEnabled };

/** What the HTTP server needs to mount the Agent Tester (undefined when it is off). */
export interface AgentTesterMount {
  path: string;
  mount(kit: { app: Express; guard: RequestHandler; auth?: RequestHandler; mcpUrl: () => string }): void;
}

export interface AgentTesterMountInput {
  config: AppConfig;
  nodeEnv: string;
  logger: CoreLogger;
  serverName: string;
  /** A model of your own instead of the configured endpoint (tests, adapters). */
  model?: ChatModel;
}

/**
 * The Agent Tester's mount, or undefined when it is off. It needs the official MCP client (an
 * optional peer): missing, `enabled: true` stops the start with the install command, and `auto`
 * leaves the Agent Tester off after a warning that says so.
 */
export async function prepareAgentTester(input: AgentTesterMountInput): Promise<AgentTesterMount | undefined> {
  const { config, logger } = input;
  const settings = config.agentTester;
  if (config.mcp.transportType !== 'http' || !isAgentTesterEnabled(settings.enabled, input.nodeEnv)) return undefined;
  try {
    await loadMcpClient();
  } catch (err) {
    if (settings.enabled !== 'auto' || !(err instanceof MissingPackageError)) throw err;
    logger.warn({ path: settings.path }, `Agent Tester off: ${err.message}`);
    return undefined;
  }
  const { createAgentTesterRouter } = await import('./routes.js'); // express and the page load only when it runs
  if (input.nodeEnv === 'production') logger.warn({ path: settings.path }, 'agentTester.enabled is true in production: the Agent Tester page and API are served');
  const model =
    input.model ??
    createChatCompletionsClient({ baseUrl: settings.model.baseUrl, model: settings.model.model, apiKey: settings.model.apiKey, timeoutMs: settings.model.timeoutMs, maxTokens: settings.model.maxTokens });
  // A stateless 2025 server keeps no client capabilities, so views would never be offered: use 2026-07-28 there.
  const era: SelfConnectionEra = config.mcp.stateless ? '2026' : '2025';
  return {
    path: settings.path,
    mount(kit) {
      const router = createAgentTesterRouter({
        settings,
        mcpUrl: kit.mcpUrl,
        era,
        model,
        logger: logger.child({ component: 'agent-tester' }),
        serverName: input.serverName,
        maxBodyBytes: config.mcp.limits.maxPayloadBytes,
      });
      kit.app.use(settings.path, kit.guard, ...(kit.auth ? [kit.auth] : []), router);
      logger.info({ path: settings.path, model: settings.model.model || undefined, configured: settings.model.baseUrl !== '' }, `Agent Tester at ${settings.path}`);
    },
  };
}
