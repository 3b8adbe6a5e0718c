/**
 * The configuration files: config/default.yaml lists every key of the installed fa-mcp-sdk and of
 * src/custom-config.ts with its comment (after an SDK upgrade or a new key of yours, regenerate it
 * with UPDATE_CONFIG=1 npx vitest run test/config.test.ts: your values are kept), and every
 * environment's layer loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema, renderConfigYaml } from 'fa-mcp-sdk';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { customConfigSchema } from '../src/custom-config.js';
import { loadServerConfig, PROJECT_ROOT } from '../src/server.js';

const DEFAULT_YAML = join(PROJECT_ROOT, 'config', 'default.yaml');

describe('configuration', () => {
  it('config/default.yaml is up to date with the schema', () => {
    const current = readFileSync(DEFAULT_YAML, 'utf8');
    const values = parseYaml(current) as Record<string, unknown>;
    const expected = renderConfigYaml(configSchema, { extraSchema: customConfigSchema, values });
    if (process.env.UPDATE_CONFIG === '1') writeFileSync(DEFAULT_YAML, expected);
    expect(current, 'regenerate with UPDATE_CONFIG=1 npx vitest run test/config.test.ts').toBe(expected);
  });

  it.each(['development', 'production', 'test'])('the %s layer loads', (nodeEnv) => {
    const config = loadServerConfig({ nodeEnv, env: {} });
    expect(config.app.greeting).toBe('Hello');
    expect(config.webServer.host).toBe(nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');
  });

  it('environment variables win over the files', () => {
    const config = loadServerConfig({ nodeEnv: 'test', env: { APP_GREETING: 'Salut', LOG_LEVEL: 'warn' } });
    expect(config.app.greeting).toBe('Salut');
    expect(config.logger.level).toBe('warn');
  });

  it('a bad value stops the start with the key named', () => {
    expect(() => loadServerConfig({ nodeEnv: 'test', env: { APP_GREETING: '' } })).toThrow(/app\.greeting/);
  });
});
