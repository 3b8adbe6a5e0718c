/**
 * Optional features against the real fa-mcp-sdk schema: each is offered exactly when the SDK has
 * its configuration section, and a project generated with it loads in every environment with the
 * settings and secrets it asked for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { configSchema, loadConfig, type AppConfig, type SchemaNode } from 'fa-mcp-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { templateSdkPaths } from '../src/bundle.js';
import { availableFeatures, FEATURES, unavailableChoices } from '../src/features.js';
import { scaffold } from '../src/scaffold.js';
import { generateSecret } from '../src/secrets.js';
import { DOCS_DIR, sampleAnswers, TEMPLATE_DIR, tempDir, templateExtraSchema } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.cleanup);

function schemaHas(path: string): boolean {
  let node: SchemaNode | undefined = configSchema;
  for (const segment of path.split('.')) node = node?.properties?.[segment];
  return node !== undefined;
}

function envOf(dir: string): Record<string, string> {
  return parseEnv(readFileSync(join(dir, '.env'), 'utf8')) as Record<string, string>;
}

async function scaffoldPlain(dir: string): Promise<string> {
  await scaffold({ targetDir: dir, templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, answers: sampleAnswers({ auth: false }) });
  return dir;
}

async function load(dir: string, nodeEnv: string) {
  const extraSchema = await templateExtraSchema();
  return loadConfig<{ app: { greeting: string } }>({ cwd: dir, nodeEnv, env: envOf(dir), extraSchema }).config;
}

describe('features', () => {
  const sdkPaths = templateSdkPaths(TEMPLATE_DIR);
  const available = availableFeatures(sdkPaths);

  it.each(FEATURES.map((f) => [f.id, f] as const))('%s is offered exactly when the SDK schema has its section', (_id, feature) => {
    expect(available.has(feature.id)).toBe(feature.requires.every(schemaHas));
  });

  it('refuses a choice the SDK cannot configure', () => {
    expect(unavailableChoices({ auth: true, database: 'embedded', consul: true }, new Set())).toEqual(['auth', 'database "embedded"', 'consul']);
    expect(unavailableChoices({ auth: false, database: 'none', consul: false }, new Set())).toEqual([]);
  });

  it('with --auth, production keeps /metrics behind a token and serves no /docs or /openapi.json', async () => {
    const dir = join(tmp.dir, 'auth-production');
    await scaffold({ targetDir: dir, templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, answers: sampleAnswers({ auth: true }) });
    const config = (await load(dir, 'production')) as unknown as AppConfig;
    expect(config.webServer.auth.enabled).toBe(true);
    expect(config.webServer.metrics.token).toBe(envOf(dir).METRICS_TOKEN);
    expect(config.webServer.metrics.token.length).toBeGreaterThanOrEqual(32);
    expect(config.webServer.openapi.enabled).toBe(false);
    const open = await load(await scaffoldPlain(join(tmp.dir, 'no-auth-production')), 'production');
    expect((open as unknown as AppConfig).webServer.openapi.enabled).toBe(true); // nothing to protect it with
  });

  it('generates strong, distinct secrets', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSecret()).not.toBe(a);
    expect(() => generateSecret(8)).toThrow(RangeError);
  });

  it.runIf(available.has('auth') && available.has('database') && available.has('consul'))(
    'a project with authentication, embedded database and Consul loads in every environment',
    async () => {
      const dir = join(tmp.dir, 'all-on');
      const result = await scaffold({
        targetDir: dir,
        templateDir: TEMPLATE_DIR,
        docsDir: DOCS_DIR,
        answers: sampleAnswers({ auth: true, database: 'embedded', consul: true }),
      });
      const env = envOf(dir);
      expect(env.AUTH_PERMANENT_SERVER_TOKENS).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(result.secrets).toContain(env.AUTH_PERMANENT_SERVER_TOKENS);

      const production = await load(dir, 'production');
      if (sdkPaths.has('mcp.requestState.secret')) expect(production.mcp.requestState.secret).toBe(env.MCP_REQUEST_STATE_SECRET);
      if (sdkPaths.has('mcp.audit.anchors.key')) {
        // the audit trail is on in production, its anchors signed with the generated key; off in development
        expect(production.mcp.audit).toMatchObject({ sink: 'jsonl', file: 'stderr', mode: 'async', anchors: { key: env.MCP_AUDIT_ANCHOR_KEY } });
        expect(env.MCP_AUDIT_ANCHOR_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect((await load(dir, 'development')).mcp.audit.sink).toBe('off');
      }
      expect(production.webServer.auth.enabled).toBe(true);
      expect(production.webServer.auth.permanentServerTokens).toEqual([env.AUTH_PERMANENT_SERVER_TOKENS]);
      expect(production.consul.enabled).toBe(true);
      expect(production.db.postgres.dbs.main?.embedded).toBe(true);

      const development = await load(dir, 'development');
      expect(development.webServer.auth.enabled).toBe(true);
      expect(development.consul.enabled).toBe(false);
      expect(development.db.postgres.dbs.main?.embeddedDataDir).toBe('data/db');

      // Tests call the tools without credentials and never register with Consul.
      const test = await load(dir, 'test');
      expect(test.webServer.auth.enabled).toBe(false);
      expect(test.consul.enabled).toBe(false);
    },
  );

  it.runIf(available.has('database'))('a PostgreSQL URL goes to .env as DATABASE_URL and reaches the config', async () => {
    const dir = join(tmp.dir, 'pg');
    const url = 'postgres://app:s3cret@db.internal:5432/app';
    await scaffold({ targetDir: dir, templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, answers: sampleAnswers({ database: 'postgres', databaseUrl: url }) });
    expect(envOf(dir).DATABASE_URL).toBe(url);
    const config = await load(dir, 'production');
    expect(config.db.postgres.dbs.main?.url).toBe(url);
    expect(config.db.postgres.dbs.main?.embedded).toBe(false);
  });

  it('a project with every feature off loads with them off', async () => {
    const dir = join(tmp.dir, 'all-off');
    await scaffold({ targetDir: dir, templateDir: TEMPLATE_DIR, docsDir: DOCS_DIR, answers: sampleAnswers() });
    const expectedEnv = [
      'HOST_PORT',
      'POSTGRES_PASSWORD',
      ...(sdkPaths.has('mcp.requestState.secret') ? ['MCP_REQUEST_STATE_SECRET'] : []),
      ...(sdkPaths.has('mcp.audit.anchors.key') ? ['MCP_AUDIT_ANCHOR_KEY'] : []),
    ];
    expect(Object.keys(envOf(dir)).sort()).toEqual(expectedEnv.sort());
    const config = await load(dir, 'production');
    expect(config.webServer.port).toBe(4123);
    expect(config.app.greeting).toBe('Hello');
    if (available.has('auth')) expect(config.webServer.auth.enabled).toBe(false);
    if (available.has('consul')) expect(config.consul.enabled).toBe(false);
  });
});
