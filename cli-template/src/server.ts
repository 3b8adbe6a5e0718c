/**
 * What this server registers, and how it starts. `start.ts` calls `startServer()`; the tests
 * call `createServerData()` with a configuration of their own.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initMcpServer, loadConfig, type InitOptions, type McpServerData, type McpServerHandle } from 'fa-mcp-sdk';
import { restApi } from './api/routes.js';
import { customConfigSchema, type CustomConfig, type ServerConfig } from './custom-config.js';
import { agentBrief } from './prompts/agent-brief.js';
import { agentPrompt } from './prompts/agent-prompt.js';
import { customPrompts } from './prompts/custom-prompts.js';
import { resources } from './resources/index.js';
import { serverInfo } from './server-info.js';
import { createTools } from './tools/index.js';

/** The project folder (config/, package.json), from src/ and dist/ alike. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function createServerData(config: ServerConfig): McpServerData {
  return {
    serverInfo,
    instructions: [
      'say_hello greets someone by name.',
      'convert_temperature converts between celsius, fahrenheit and kelvin;',
      'temperature://units lists the units it accepts.',
    ].join(' '),
    agentBrief,
    agentPrompt,
    tools: createTools(config),
    prompts: customPrompts,
    resources,
    rest: restApi,
  };
}

/** Reads the configuration (the same layers the server reads). */
export function loadServerConfig(options: InitOptions = {}): ServerConfig {
  const { config: overrides, cwd = PROJECT_ROOT, configDir, nodeEnv, env } = options;
  return loadConfig<CustomConfig>({
    cwd,
    extraSchema: customConfigSchema,
    ...(configDir ? { configDir } : {}),
    ...(nodeEnv ? { nodeEnv } : {}),
    ...(env ? { env } : {}),
    ...(overrides ? { overrides } : {}),
  }).config;
}

export function startServer(options: InitOptions = {}): Promise<McpServerHandle> {
  const init: InitOptions = { cwd: PROJECT_ROOT, extraSchema: customConfigSchema, ...options };
  return initMcpServer(createServerData(loadServerConfig(init)), init);
}
