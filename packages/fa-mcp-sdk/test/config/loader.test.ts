import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type LoadConfigOptions } from '../../src/config/index.js';

let cwd: string;
let dir: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'fa-mcp-config-'));
  dir = join(cwd, 'config');
  mkdirSync(dir);
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const load = (options: LoadConfigOptions = {}) => loadConfig({ cwd, env: {}, ...options });

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig layers', () => {
  it('each layer overrides the previous one; objects merge, arrays replace', () => {
    const def = write('default.yaml', 'webServer:\n  port: 1001\n  host: a.local\n  allowedOrigins: [x, y]\nlogger:\n  level: warn\n');
    const dev = write('development.yaml', 'webServer:\n  port: 1002\n  allowedOrigins: [z]\n');
    const local = write('local.yaml', 'webServer:\n  port: 1003\n');
    let loaded = load();
    expect(loaded.nodeEnv).toBe('development');
    expect(loaded.config.webServer).toMatchObject({ port: 1003, host: 'a.local', allowedOrigins: ['z'] });
    expect(loaded.config.logger.level).toBe('warn');
    expect(loaded.config.webServer.shutdownGraceMs).toBe(10000);
    expect(loaded.sources).toMatchObject({
      'webServer.port': local,
      'webServer.host': def,
      'webServer.allowedOrigins': dev,
      'logger.level': def,
      'webServer.shutdownGraceMs': 'default',
    });

    loaded = load({ env: { PORT: '1004' } });
    expect(loaded.config.webServer.port).toBe(1004);
    expect(loaded.sources['webServer.port']).toBe('env:PORT');

    loaded = load({ env: { PORT: '1004' }, overrides: { webServer: { port: 1005 } } });
    expect(loaded.config.webServer.port).toBe(1005);
    expect(loaded.config.webServer.host).toBe('a.local');
    expect(loaded.sources['webServer.port']).toBe('overrides');
  });

  it('deep-merges map values across layers', () => {
    write('default.yaml', 'mcp:\n  limits:\n    toolTimeouts:\n      a: 1000\n');
    const local = write('local.yaml', 'mcp:\n  limits:\n    toolTimeouts:\n      b: 2000\n');
    const { config, sources } = load();
    expect(config.mcp.limits.toolTimeouts).toEqual({ a: 1000, b: 2000 });
    expect(sources['mcp.limits.toolTimeouts']).toBe(local);
  });

  it('chooses the file of NODE_ENV (option, then env, then development)', () => {
    write('development.yaml', 'name: dev\n');
    write('production.yaml', 'name: prod\n');
    write('test.yaml', 'name: test\n');
    expect(load().config.name).toBe('dev');
    expect(load({ env: { NODE_ENV: 'production' } }).config.name).toBe('prod');
    const byOption = load({ env: { NODE_ENV: 'production' }, nodeEnv: 'test' });
    expect(byOption.config.name).toBe('test');
    expect(byOption.nodeEnv).toBe('test');
  });

  it('rejects a NODE_ENV that is not a plain file name', () => {
    expect(errorOf(() => load({ nodeEnv: '../etc' })).message).toContain('NODE_ENV "../etc"');
  });

  it('skips missing files and empty files; honours configDir', () => {
    write('default.yaml', '');
    expect(load().config.webServer.port).toBe(3000);
    const other = join(cwd, 'elsewhere');
    mkdirSync(other);
    writeFileSync(join(other, 'default.yaml'), 'webServer: { port: 4321 }\n');
    expect(load({ configDir: 'elsewhere' }).config.webServer.port).toBe(4321);
    expect(load({ configDir: other }).config.webServer.port).toBe(4321);
  });
});

describe('loadConfig validation', () => {
  it('a bad YAML value names the path, the expectation and the file', () => {
    write('default.yaml', 'webServer:\n  port: 3000\n');
    const local = write('local.yaml', 'webServer:\n  port: 99999\n  trustProxy: "yes"\nlogger:\n  format: fancy\n');
    const err = errorOf(() => load());
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { path: 'webServer.port', message: `must be integer between 0 and 65535 (got 99999 from ${local})` },
        { path: 'webServer.trustProxy', message: `must be false, true (one hop), a hop count, or proxy addresses/CIDRs/loopback/linklocal/uniquelocal (list or comma-separated) (got "yes" from ${local})` },
        { path: 'logger.format', message: `must be one of "auto", "json", "pretty" (got "fancy" from ${local})` },
      ]),
    );
    expect(err.issues).toHaveLength(3);
    expect(err.message).toContain(`webServer.port: must be integer between 0 and 65535 (got 99999 from ${local})`);
  });

  it('a bad value in overrides names the overrides layer', () => {
    const err = errorOf(() => load({ overrides: { mcp: { excludeTools: ['ok', 5] } } }));
    expect(err.issues).toEqual([{ path: 'mcp.excludeTools.1', message: 'must be string (got 5 from overrides)' }]);
  });

  it('a scalar where a section is expected is an error', () => {
    const file = write('default.yaml', 'mcp: 5\n');
    expect(errorOf(() => load()).issues).toEqual([{ path: 'mcp', message: `must be object (got 5 from ${file})` }]);
  });

  it('rejects an unknown key under a framework section', () => {
    const file = write('default.yaml', 'mcp:\n  sessions:\n    maxSesions: 5\n');
    const err = errorOf(() => load());
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]!.path).toBe('mcp.sessions.maxSesions');
    expect(err.issues[0]!.message).toContain('unknown key');
    expect(err.issues[0]!.message).toContain('maxSessions, maxPerCaller, idleTimeoutMs');
    expect(err.issues[0]!.message).toContain(file);
  });

  it('accepts consumer top-level keys', () => {
    const file = write('default.yaml', 'myService:\n  url: http://x\n  retries: 3\n');
    const { config, sources } = loadConfig<{ myService: { url: string; retries: number } }>({ cwd, env: {} });
    expect(config.myService).toEqual({ url: 'http://x', retries: 3 });
    expect(sources['myService.url']).toBe(file);
  });

  it('extraSchema adds defaults, env mapping and validation for consumer keys', () => {
    const extraSchema = {
      myService: {
        type: 'object',
        additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', default: 'http://localhost', description: 'u', 'x-env': ['MY_URL'] },
          retries: { type: 'integer', minimum: 0, default: 2, description: 'r', 'x-env': ['MY_RETRIES'] },
        },
      },
    };
    let loaded = load({ extraSchema });
    expect(loaded.config).toMatchObject({ myService: { url: 'http://localhost', retries: 2 } });
    loaded = load({ extraSchema, env: { MY_RETRIES: '5' } });
    expect(loaded.config).toMatchObject({ myService: { retries: 5 } });
    const err = errorOf(() => load({ extraSchema, env: { MY_URL: 'not a uri' } }));
    expect(err.issues).toEqual([
      { path: 'myService.url', message: 'must be string in format "uri" (got "not a uri" from env:MY_URL)' },
    ]);
    expect(() => load({ extraSchema: { mcp: { type: 'object' } } })).toThrow(/framework key "mcp"/);
  });

  it('a YAML syntax error names the file and the line', () => {
    const file = write('local.yaml', 'webServer:\n  port: 1\n   host: x\n');
    const err = errorOf(() => load());
    expect(err.issues).toHaveLength(1);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 3/);
  });

  it('a YAML file that is not a mapping is an error', () => {
    const file = write('default.yaml', '- a\n- b\n');
    expect(errorOf(() => load()).message).toContain(`${file}: top level must be a mapping`);
  });

  it('lists every problem at once', () => {
    write('default.yaml', 'logger:\n  level: loud\n');
    const err = errorOf(() => load({ env: { PORT: 'x' } }));
    expect(err.issues.map((i) => i.path).sort()).toEqual(['logger.level', 'webServer.port']);
  });
});
