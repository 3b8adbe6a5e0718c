import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, envToConfig, loadConfig, type SchemaNode } from '../../src/config/index.js';

const load = (env: Record<string, string>) => loadConfig({ cwd: '/nonexistent', env });

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('env mapping', () => {
  it('coerces integers, strings and enums', () => {
    const { config, sources } = load({ PORT: '8080', HOST: '0.0.0.0', MCP_TRANSPORT_TYPE: 'stdio', LOG_LEVEL: 'debug' });
    expect(config.webServer.port).toBe(8080);
    expect(config.webServer.host).toBe('0.0.0.0');
    expect(config.mcp.transportType).toBe('stdio');
    expect(config.logger.level).toBe('debug');
    expect(sources['webServer.port']).toBe('env:PORT');
  });

  it.each([
    ['true', true], ['TRUE', true], ['1', true], ['yes', true], ['Yes', true],
    ['false', false], ['0', false], ['no', false], ['NO', false],
  ])('coerces boolean %s', (raw, expected) => {
    expect(load({ MCP_STATELESS: raw }).config.mcp.stateless).toBe(expected);
  });

  it('coerces arrays from a comma list or a JSON array', () => {
    expect(load({ MCP_EXCLUDE_TOOLS: 'a, b,,c ' }).config.mcp.excludeTools).toEqual(['a', 'b', 'c']);
    expect(load({ MCP_EXCLUDE_TOOLS: '["x,y","z"]' }).config.mcp.excludeTools).toEqual(['x,y', 'z']);
    expect(load({ MCP_EXCLUDE_TOOLS: '' }).config.mcp.excludeTools).toEqual([]);
    expect(load({ WEB_SERVER_ALLOWED_HOSTS: 'a.example' }).config.webServer.hostValidation.allowedHosts).toEqual([
      'a.example',
    ]);
  });

  it('coerces objects from JSON', () => {
    const { config, sources } = load({ MCP_TOOL_TIMEOUTS: '{"slow": 60000}' });
    expect(config.mcp.limits.toolTimeouts).toEqual({ slow: 60000 });
    expect(sources['mcp.limits.toolTimeouts']).toBe('env:MCP_TOOL_TIMEOUTS');
  });

  it('coerces numbers (mapping level)', () => {
    const schema: SchemaNode = {
      type: 'object',
      properties: { ratio: { type: 'number', default: 1, description: 'r', 'x-env': ['RATIO'] } },
    };
    expect(envToConfig(schema, { RATIO: '0.25' }).values).toEqual({ ratio: 0.25 });
    expect(envToConfig(schema, { RATIO: 'half' }).issues).toEqual([
      { path: 'ratio', message: 'must be number (got "half" from env:RATIO)' },
    ]);
  });

  it('canonical variable wins over its alias; the alias works alone', () => {
    expect(load({ PORT: '1', WEB_SERVER_PORT: '2' }).config.webServer.port).toBe(1);
    const alone = load({ WEB_SERVER_PORT: '2' });
    expect(alone.config.webServer.port).toBe(2);
    expect(alone.sources['webServer.port']).toBe('env:WEB_SERVER_PORT');
  });

  it('an empty value of a non-string type counts as unset', () => {
    expect(load({ PORT: '' }).config.webServer.port).toBe(3000);
    expect(load({ MCP_SERVER_NAME: '' }).config.name).toBe('');
  });

  it('a value that cannot be coerced names the variable, the path and the type', () => {
    const err = errorOf(() => load({ PORT: 'abc', MCP_STATELESS: 'maybe', MCP_TOOL_TIMEOUTS: '[1]' }));
    expect(err.issues).toEqual([
      { path: 'mcp.stateless', message: 'must be boolean (got "maybe" from env:MCP_STATELESS)' },
      { path: 'mcp.limits.toolTimeouts', message: 'must be object of integer >= 1 (got "[1]" from env:MCP_TOOL_TIMEOUTS)' },
      { path: 'webServer.port', message: 'must be integer between 0 and 65535 (got "abc" from env:PORT)' },
    ]);
    expect(err.message).toContain('webServer.port: must be integer between 0 and 65535 (got "abc" from env:PORT)');
  });

  it('a coerced value out of range is reported with its variable', () => {
    const err = errorOf(() => load({ PORT: '70000', MCP_TRANSPORT_TYPE: 'ws', MCP_PAGE_SIZE: '0' }));
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { path: 'webServer.port', message: 'must be integer between 0 and 65535 (got 70000 from env:PORT)' },
        { path: 'mcp.transportType', message: 'must be one of "http", "stdio" (got "ws" from env:MCP_TRANSPORT_TYPE)' },
        { path: 'mcp.pagination.pageSize', message: 'must be integer between 1 and 1000 (got 0 from env:MCP_PAGE_SIZE)' },
      ]),
    );
    expect(err.issues).toHaveLength(3);
  });

  it('maps only leaves that have x-env', () => {
    const result = envToConfig(configSchema, {});
    expect(result).toEqual({ values: {}, sources: {}, issues: [] });
  });
});
