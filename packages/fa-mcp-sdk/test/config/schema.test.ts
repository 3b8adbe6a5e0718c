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
    fastPath: false,
    stdio: { consoleToStderr: false },
    tools: { nameRule: 'mcp' },
    sessions: { maxSessions: 5, maxPerCaller: 3, idleTimeoutMs: 5000, store: 'postgres', database: 'sessions' },
    limits: { maxPayloadBytes: 2048, maxJsonDepth: 20, maxToolResultBytes: 4096, toolTimeoutMs: 10, toolTimeouts: { slow: 99 } },
    validation: { argumentErrors: 'protocol' },
    progress: { throttleMs: 0 },
    pagination: { pageSize: 7, cursorSecret: '' },
    rateLimit: {
      enabled: true,
      scope: 'subject',
      maxRequests: 10,
      windowMs: 1000,
      perTool: { slow_tool: { maxRequests: 2, windowMs: 5000 } },
      maxConcurrentPerSubject: 4,
      methods: {},
      store: 'memory',
      database: 'main',
    },
    tasks: {
      enabled: true,
      store: 'postgres',
      database: 'main',
      defaultTtlMs: 60_000,
      minTtlMs: 1_000,
      maxTtlMs: 120_000,
      pollIntervalMs: 200,
      maxTasks: 50,
      leaseMs: 5_000,
      maxUpdateBytes: 65_536,
      sweepIntervalMs: 5_000,
    },
    events: {
      store: 'postgres',
      database: 'events',
      retention: { maxEvents: 50, maxAgeMs: 60_000 },
      maxPayloadBytes: 1024,
      maxSubscriptionsPerPrincipal: 3,
      maxStreamsPerPrincipal: 2,
      heartbeatMs: 500,
      pollIntervalMs: 700,
      maxEventsPerPoll: 10,
      maxPollWaitMs: 1000,
      webhooks: { defaultTtlMs: 120_000, minTtlMs: 2000, maxTtlMs: 240_000, allowNoExpiry: true, allowPrivateNetworks: false, verifyTimeoutMs: 900 },
      sweepIntervalMs: 800,
    },
    resumability: { store: 'postgres', database: 'events', maxEventsPerStream: 10, maxStreams: 20, retentionMs: 60_000, sweepIntervalMs: 5_000 },
    notifications: { bus: 'postgres', database: 'main' },
    mintedResources: {
      enabled: true,
      store: 'postgres',
      database: 'main',
      uriPrefix: 'files://minted/',
      ttlMs: 60_000,
      maxResources: 10,
      maxBytes: 1_048_576,
      sweepIntervalMs: 5_000,
    },
    excludeTools: ['a'],
    instructions: { budget: 64 },
    capabilities: { logging: true, listChanged: 'auto', subscribe: false },
    requestState: { secret: 's'.repeat(32), ttlMs: 5000, maxRounds: 3 },
    cacheHints: { ttlMs: 1000, cacheScope: 'public', perMethod: { 'resources/read': { ttlMs: 60_000, cacheScope: 'private' } } },
    debug: { logFile: '/tmp/trace.jsonl', maxEntryBytes: 512, builtinTools: true, allowInProduction: true },
    audit: {
      sink: 'postgres',
      file: '/var/log/audit.jsonl',
      mode: 'sync',
      arguments: 'masked',
      database: 'audit',
      instance: 'mcp-1',
      retentionDays: 365,
      queueSize: 100,
      batchSize: 10,
      windowMs: 50,
      maxExtraBytes: 1024,
      otel: false,
      anchors: { key: 'a'.repeat(32), intervalMs: 5000 },
    },
  },
  webServer: {
    host: '0.0.0.0',
    port: 0,
    trustProxy: true,
    hostValidation: { enabled: false, allowedHosts: ['x.example'] },
    allowedOrigins: ['https://x.example'],
    cors: { enabled: false, credentials: true, maxAgeSec: 60 },
    securityHeaders: { enabled: false, hstsMaxAgeSec: 31_536_000 },
    timeouts: { headersMs: 1000, bodyMs: 1000, requestMs: 2000, keepAliveMs: 1000 },
    auth: {
      enabled: true,
      realm: 'r',
      publicUrl: 'https://mcp.example',
      hideUnauthorized: true,
      requiredScopes: ['mcp'],
      requiredGroups: ['g'],
      permanentServerTokens: ['t'.repeat(32)],
      serverTokenScopes: ['s'],
      basic: { username: 'u', password: 'p:w', scopes: ['s'], groups: ['g'] },
      jwtToken: {
        mode: 'embedded',
        encryptKey: 'k'.repeat(16),
        legacyAcceptUnsigned: true,
        issuer: 'https://mcp.example',
        audience: 'aud',
        algorithms: ['ES256'],
        clockToleranceSec: 5,
        verifyCacheMs: 0,
        publicKey: 'pem',
        privateKey: 'pem',
        jwksUrl: 'https://idp.example/jwks',
        jwksCooldownMs: 1,
        jwksCacheMaxAgeMs: 1000,
        jwksTimeoutMs: 100,
        subjectClaim: 'user',
        scopeClaim: 'scp',
        groupsClaim: 'roles',
        maxTtlSec: 60,
      },
      oauth: {
        clients: [{ clientId: 'c', clientSecret: 's', scopes: ['a'], maxTtlSec: 60 }],
        scopesSupported: ['a'],
        trustedIdps: [{ issuer: 'https://idp.example', jwksUrl: 'https://idp.example/keys', algorithms: ['RS256'], clientIds: ['c'], claims: { subject: 'email', email: 'mail', groups: 'roles' } }],
        idJagMaxLifetimeSec: 300,
      },
      mintEndpoint: { enabled: true, path: '/t', requiredScopes: ['x'], requiredGroups: ['g'], allowedScopes: ['a'], maxTtlSec: 60 },
      revoked: { subjects: ['bob'], tokenIds: ['j'] },
      ldap: {
        url: 'ldap://127.0.0.1:389',
        bindDn: 'cn=svc',
        bindPassword: 'p',
        baseDn: 'dc=x',
        userFilter: '(uid={user})',
        groupFilter: '(member={dn})',
        groupNameAttribute: 'ou',
        cacheTtlMs: 0,
        timeoutMs: 100,
      },
      failureThrottle: { enabled: false, perAddress: 5, perUserAddress: 4, perUser: 3, windowSec: 30, blockSec: 60, delayMs: 500, maxDelayed: 7 },
      stdioToken: 'tok',
    },
    tokenCheck: { allowQueryToken: true },
    metrics: { enabled: false, path: '/m', token: 'scrape', separatePort: true, port: 9100, processMetrics: false },
    rest: { enabled: false, basePath: '/rest', exposeTools: true },
    openapi: { enabled: false, jsonPath: '/o.json', yamlPath: '/o.yaml', docsPath: '/reference', access: 'authenticated' },
    shutdownGraceMs: 0,
    shutdown: { drainMs: 0 },
  },
  logger: { level: 'debug', format: 'json' },
  db: {
    ambientScope: false,
    postgres: {
      dbs: {
        main: {
          url: 'postgres://u:p@h:1/d',
          host: 'db.example',
          port: 6543,
          user: 'app',
          password: 'pw',
          database: 'appdb',
          poolSize: 3,
          connectionTimeoutMs: 1000,
          idleTimeoutMs: 0,
          statementTimeoutMs: 0,
          ssl: true,
          sslRejectUnauthorized: false,
          usedExtensions: ['vector'],
          embedded: true,
          embeddedDataDir: 'data/pg',
        },
      },
    },
  },
  tracing: { enabled: false },
  consul: {
    enabled: true,
    agent: { host: 'consul.example', port: 8501, secure: true, token: 'acl', timeoutMs: 1000 },
    service: { name: 'svc', id: 'svc-1', tags: ['mcp'], meta: { team: 'a' }, address: '10.0.0.1', port: 8080 },
    check: { path: '/ready', interval: '5s', timeout: '2s', deregisterCriticalServiceAfter: '5m' },
    reregisterIntervalMs: 1000,
    accessPoints: { users: { service: 'users-api', tag: 'v2', dc: 'dc1', passingOnly: true } },
    cacheTtlMs: 0,
  },
  agentTester: {
    enabled: true,
    path: '/dev/tester',
    systemPrompt: 'Be brief.',
    model: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'm', apiKey: 'k', timeoutMs: 1000, maxTokens: 256 },
    limits: { maxTurns: 3, conversationTimeoutMs: 5000, maxSessions: 2, maxConcurrentConversations: 3, sessionMaxAgeMs: 60_000, sessionIdleMs: 30_000, maxPromptChars: 100 },
  },
  webhooks: {
    endpoints: [{ name: 'orders', url: 'https://hooks.example.com/in', secretEnv: 'ORDERS_HOOK_SECRET', events: ['task.*'], timeoutMs: 2000, headers: { 'x-team': 'a' } }],
    store: 'postgres',
    database: 'other',
    allowPrivateNetworks: false,
    taskEvents: true,
    maxAttempts: 3,
    initialBackoffMs: 50,
    maxBackoffMs: 5000,
    timeoutMs: 1000,
    pollIntervalMs: 100,
    leaseMs: 5000,
    concurrency: 2,
    retentionMs: 120_000,
  },
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
