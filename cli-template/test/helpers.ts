/** What every test of this server shares: its data built from config/test.yaml, and the start options. */
import type { InitOptions, McpServerData } from 'fa-mcp-sdk';
import type { TestServer } from 'fa-mcp-sdk/testing';
import { customConfigSchema } from '../src/custom-config.js';
import { createServerData, loadServerConfig, PROJECT_ROOT } from '../src/server.js';

export type TestClient = Awaited<ReturnType<TestServer['connect']>>;

/** Options for startTestServer: this project's config folder and keys, NODE_ENV=test. */
export const testInit = { cwd: PROJECT_ROOT, extraSchema: customConfigSchema, nodeEnv: 'test' } satisfies InitOptions;

/** The server's data, configured like the test server (plus optional overrides). */
export function testServerData(overrides?: Record<string, unknown>): McpServerData {
  return createServerData(loadServerConfig({ ...testInit, ...(overrides ? { config: overrides } : {}) }));
}
