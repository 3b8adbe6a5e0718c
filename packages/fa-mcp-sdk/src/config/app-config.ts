/** The validated configuration. Hand-written; must match `configSchema` (proved by a test). */
import type { AuthConfig, TokenCheckConfig } from './sections/auth-config.js';
import type { AgentTesterConfig } from './sections/agent-tester.js';
import type { DbSectionConfig } from './sections/db.js';
import type { ConsulConfig } from './sections/consul.js';
import type { McpDebugConfig } from './sections/mcp-debug.js';
import type { CapabilitiesConfig } from './sections/capabilities.js';
import type { MintedResourcesConfig, NotificationsConfig, ResumabilityConfig } from './sections/state.js';
import type { TracingConfig } from './sections/tracing.js';
import type { WebhooksConfig } from './sections/webhooks.js';
import type { AuditConfig } from './sections/audit.js';
import type { EventsConfig } from './sections/events.js';
import type { MetricsConfig, OpenApiConfig, RestConfig } from './sections/web-ops.js';

export type CacheScopeConfig = 'private' | 'public';

export interface AppConfig {
  name: string;
  mcp: {
    transportType: 'http' | 'stdio';
    stateless: boolean;
    legacySse: boolean;
    responseMode: 'json' | 'sse';
    httpErrorStatus: boolean;
    fastPath: boolean;
    stdio: {
      consoleToStderr: boolean;
    };
    sessions: {
      maxSessions: number;
      maxPerCaller: number;
      idleTimeoutMs: number;
      store: 'memory' | 'postgres';
      database: string;
    };
    limits: {
      maxPayloadBytes: number;
      maxJsonDepth: number;
      maxToolResultBytes: number;
      toolTimeoutMs: number;
      toolTimeouts: Record<string, number>;
    };
    validation: {
      argumentErrors: 'result' | 'protocol';
    };
    progress: {
      throttleMs: number;
    };
    pagination: {
      pageSize: number;
      cursorSecret: string;
    };
    rateLimit: {
      enabled: boolean;
      scope: 'ip' | 'subject' | 'global';
      maxRequests: number;
      windowMs: number;
      perTool: Record<string, { maxRequests: number; windowMs?: number }>;
      methods: Record<string, { maxRequests: number; windowMs?: number }>;
      maxConcurrentPerSubject: number;
      store: 'memory' | 'postgres';
      database: string;
    };
    tasks: {
      enabled: boolean;
      store: 'memory' | 'postgres';
      database: string;
      defaultTtlMs: number;
      minTtlMs: number;
      maxTtlMs: number;
      pollIntervalMs: number;
      maxTasks: number;
      leaseMs: number;
      maxUpdateBytes: number;
      sweepIntervalMs: number;
    };
    events: EventsConfig;
    resumability: ResumabilityConfig;
    notifications: NotificationsConfig;
    mintedResources: MintedResourcesConfig;
    tools: {
      nameRule: 'snake_case' | 'mcp';
    };
    excludeTools: string[];
    instructions: {
      budget: number;
    };
    capabilities: CapabilitiesConfig;
    requestState: {
      secret: string;
      ttlMs: number;
      maxRounds: number;
    };
    cacheHints: {
      ttlMs: number;
      cacheScope: CacheScopeConfig;
      perMethod: Record<string, { ttlMs?: number; cacheScope?: CacheScopeConfig }>;
    };
    debug: McpDebugConfig;
    audit: AuditConfig;
  };
  webServer: {
    host: string;
    port: number;
    /** false/0: none; true: one hop; n: n hops; addresses, CIDRs or loopback/linklocal/uniquelocal. */
    trustProxy: boolean | number | string | string[];
    hostValidation: {
      enabled: boolean;
      allowedHosts: string[];
    };
    allowedOrigins: string[];
    cors: { enabled: boolean; credentials: boolean; maxAgeSec: number };
    securityHeaders: { enabled: boolean; hstsMaxAgeSec: number };
    timeouts: { headersMs: number; bodyMs: number; requestMs: number; keepAliveMs: number };
    auth: AuthConfig;
    tokenCheck: TokenCheckConfig;
    metrics: MetricsConfig;
    rest: RestConfig;
    openapi: OpenApiConfig;
    shutdownGraceMs: number;
    shutdown: { drainMs: number };
  };
  logger: {
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    format: 'auto' | 'json' | 'pretty';
  };
  db: DbSectionConfig;
  tracing: TracingConfig;
  consul: ConsulConfig;
  agentTester: AgentTesterConfig;
  webhooks: WebhooksConfig;
}
