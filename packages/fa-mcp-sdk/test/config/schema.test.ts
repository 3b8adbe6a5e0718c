import { describe, expect, it } from 'vitest';
import {
  configSchema,
  forEachLeaf,
  leafPaths,
  loadConfig,
  schemaDefaults,
  type AppConfig,
} from '../../src/config/index.js';

/** Dotted paths of the leaves of a config value, using the schema to tell maps (leaves) from sections. */
function valueLeafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  const schemaLeaves = new Set(leafPaths(configSchema));
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!schemaLeaves.has(path) && child && typeof child === 'object' && !Array.isArray(child)) {
      out.push(...valueLeafPaths(child as Record<string, unknown>, path));
    } else {
      out.push(path);
    }
  }
  return out;
}

// Every field of AppConfig, with non-default values. Typed as AppConfig so the compiler rejects a
// missing or extra field; the tests below prove the schema has exactly the same leaves and accepts it.
const full: AppConfig = {
  name: 'full',
  mcp: {
    transportType: 'stdio',
    stateless: true,
    legacySse: false,
    responseMode: 'json',
    httpErrorStatus: true,
    sessions: { maxSessions: 5, idleTimeoutMs: 5000 },
    limits: { maxPayloadBytes: 2048, maxToolResultBytes: 4096, toolTimeoutMs: 10, toolTimeouts: { slow: 99 } },
    progress: { throttleMs: 0 },
    pagination: { pageSize: 7 },
    rateLimit: {
      enabled: true,
      scope: 'subject',
      maxRequests: 10,
      windowMs: 1000,
      perTool: { slow_tool: { maxRequests: 2, windowMs: 5000 } },
      maxConcurrentPerSubject: 4,
      store: 'memory',
    },
    excludeTools: ['a'],
    instructions: { budget: 64 },
  },
  webServer: {
    host: '0.0.0.0',
    port: 0,
    trustProxy: true,
    hostValidation: { enabled: false, allowedHosts: ['x.example'] },
    allowedOrigins: ['https://x.example'],
    shutdownGraceMs: 0,
  },
  logger: { level: 'debug', format: 'json' },
};

describe('schema', () => {
  it('gives every leaf a type, default, description and x-env', () => {
    forEachLeaf(configSchema, (path, node) => {
      const where = path.join('.');
      expect(node.type, where).toBeDefined();
      expect(node.default, where).not.toBeUndefined();
      expect(typeof node.description, where).toBe('string');
      expect(node.description!.length, where).toBeGreaterThan(0);
      expect(node.description, where).not.toMatch(/\n/);
      expect(Array.isArray(node['x-env']) && node['x-env'].length > 0, where).toBe(true);
    });
  });

  it('AppConfig and the schema have the same leaves', () => {
    expect(valueLeafPaths(full as unknown as Record<string, unknown>).sort()).toEqual(leafPaths(configSchema).sort());
  });

  it('a full AppConfig validates and passes through unchanged', () => {
    const { config } = loadConfig({ cwd: '/nonexistent', env: {}, overrides: full as unknown as Record<string, unknown> });
    expect(config).toEqual(full);
  });

  it('defaults: every schema leaf appears in the default config', () => {
    const { config, sources } = loadConfig({ cwd: '/nonexistent', env: {} });
    expect(config).toEqual(schemaDefaults(configSchema));
    expect(valueLeafPaths(config as unknown as Record<string, unknown>).sort()).toEqual(leafPaths(configSchema).sort());
    for (const path of leafPaths(configSchema)) expect(sources[path], path).toBe('default');
    expect(config.webServer.port).toBe(3000);
    expect(config.webServer.host).toBe('127.0.0.1');
    expect(config.mcp.transportType).toBe('http');
    expect(config.mcp.limits.toolTimeouts).toEqual({});
    expect(config.logger).toEqual({ level: 'info', format: 'auto' });
  });

  it('defaults are fresh copies', () => {
    const a = loadConfig({ cwd: '/nonexistent', env: {} }).config;
    a.mcp.excludeTools.push('x');
    const b = loadConfig({ cwd: '/nonexistent', env: {} }).config;
    expect(b.mcp.excludeTools).toEqual([]);
  });
});
