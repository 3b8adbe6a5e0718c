/** The validated configuration. Hand-written; must match `configSchema` (proved by a test). */
export interface AppConfig {
  name: string;
  mcp: {
    transportType: 'http' | 'stdio';
    stateless: boolean;
    legacySse: boolean;
    responseMode: 'json' | 'sse';
    httpErrorStatus: boolean;
    sessions: {
      maxSessions: number;
      idleTimeoutMs: number;
    };
    limits: {
      maxPayloadBytes: number;
      maxToolResultBytes: number;
      toolTimeoutMs: number;
      toolTimeouts: Record<string, number>;
    };
    progress: {
      throttleMs: number;
    };
    pagination: {
      pageSize: number;
    };
    rateLimit: {
      enabled: boolean;
      scope: 'ip' | 'subject' | 'global';
      maxRequests: number;
      windowMs: number;
      perTool: Record<string, { maxRequests: number; windowMs?: number }>;
      maxConcurrentPerSubject: number;
      store: 'memory' | 'postgres';
    };
    excludeTools: string[];
    instructions: {
      budget: number;
    };
  };
  webServer: {
    host: string;
    port: number;
    trustProxy: boolean;
    hostValidation: {
      enabled: boolean;
      allowedHosts: string[];
    };
    allowedOrigins: string[];
    shutdownGraceMs: number;
  };
  logger: {
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    format: 'auto' | 'json' | 'pretty';
  };
}
