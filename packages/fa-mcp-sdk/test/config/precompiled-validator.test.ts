/**
 * The built package validates the configuration with the validator compiled at build time
 * (dist/config-validator.cjs, scripts/build-config-validator.mjs), not with one compiled at start:
 * it answers exactly as the run-time compiled one of the sources does (defaults, coercion, every
 * error with its path and message), and a consumer's extraSchema still compiles at run time.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as source from '../../src/config/index.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const VALIDATOR = join(DIST, 'config-validator.cjs');
const built = (await import(join(DIST, 'index.js'))) as typeof source;
const cwd = mkdtempSync(join(tmpdir(), 'fa-mcp-precompiled-'));
mkdirSync(join(cwd, 'config'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

type Outcome = { config: unknown } | { issues: unknown };
function outcome(load: typeof source.loadConfig, opts: source.LoadConfigOptions): Outcome {
  try {
    return { config: load({ cwd, env: {}, ...opts }).config };
  } catch (err) {
    if (!(err instanceof Error) || !('issues' in err)) throw err;
    return { issues: (err as source.ConfigError).issues };
  }
}

describe('the precompiled configuration validator', () => {
  it('is built next to the package entry, for the schema of this build', () => {
    expect(existsSync(VALIDATOR), 'run `pnpm run build`: dist/config-validator.cjs is missing').toBe(true);
    const mod = createRequire(import.meta.url)(VALIDATOR) as { default: unknown; schemaHash: string };
    expect(typeof mod.default).toBe('function');
    expect(mod.schemaHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is what the built loadConfig uses, and answers as the run-time compiled validator', () => {
    const cases: source.LoadConfigOptions[] = [
      {},
      { env: { PORT: '8080', LOG_LEVEL: 'debug', MCP_TRANSPORT_TYPE: 'stdio' } },
      { overrides: { webServer: { port: 70000, auth: { enabled: 'yes' } }, logger: { level: 'loud' } } },
      { overrides: { mcp: { limits: { maxPayloadBytes: -1 } }, db: { postgres: { dbs: { main: { url: 'not a url', poolSize: 0 } } } } } },
      { overrides: { consul: { enabled: true, agent: { port: 'x' } }, unknownKey: 1 } },
    ];
    for (const opts of cases) {
      const expected = outcome(source.loadConfig, opts);
      expect(outcome(built.loadConfig, opts), JSON.stringify(opts)).toEqual(expected);
    }
    expect(outcome(built.loadConfig, cases[2] as source.LoadConfigOptions)).toHaveProperty('issues');
    const cache = createRequire(import.meta.url).cache;
    expect(Object.keys(cache), 'the built loadConfig did not load dist/config-validator.cjs').toContain(VALIDATOR);
  });

  it('leaves a consumer extraSchema to the run-time compiler', () => {
    const extraSchema = { type: 'object', properties: { my: { type: 'object', properties: { retries: { type: 'integer', minimum: 1, default: 3, 'x-env': ['MY_RETRIES'] } } } } };
    writeFileSync(join(cwd, 'config', 'default.yaml'), 'my:\n  retries: 0\n');
    const bad = outcome(built.loadConfig, { extraSchema });
    expect(bad).toEqual(outcome(source.loadConfig, { extraSchema }));
    expect(JSON.stringify(bad)).toContain('my.retries');
    writeFileSync(join(cwd, 'config', 'default.yaml'), 'my:\n  retries: 2\n');
    expect(outcome(built.loadConfig, { extraSchema })).toMatchObject({ config: { my: { retries: 2 } } });
    rmSync(join(cwd, 'config', 'default.yaml'));
  });
});
