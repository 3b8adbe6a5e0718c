/**
 * The HTTP server: an express app with the request-id, trace and DNS-rebinding
 * guards in front of the MCP endpoint (/mcp), the legacy SSE endpoints
 * (/sse, /messages), /health and /ready.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import type { Core } from '../../core/core.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { createHealthRouter, type ReadinessCheck } from '../../ops/health.js';
import type { LiveServers } from '../../protocol/live-servers.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import { jsonBody, jsonBodyErrors } from './body-parser.js';
import { describeHttpRequest } from './describe-request.js';
import { hostOriginGuard } from './host-origin-guard.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { createLegacySseRoutes, type LegacySseRoutes } from './legacy-sse-routes.js';
import { createMcpRoutes, type McpRoutes } from './mcp-routes.js';
import { requestIdMiddleware } from './request-id.js';
import { traceContextMiddleware } from './traceparent.js';

export interface HttpServerOptions {
  core: Core;
  live: LiveServers;
  eventStore: IEventStore;
  host: string;
  port: number;
  trustProxy: boolean;
  stateless: boolean;
  legacySse: boolean;
  responseMode: 'json' | 'sse';
  mapErrorStatus: boolean;
  maxPayloadBytes: number;
  sessions: { maxSessions: number; idleTimeoutMs: number };
  hostValidation: { enabled: boolean; allowedHosts: string[] };
  allowedOrigins: string[];
  readinessChecks: () => ReadinessCheck[];
  isShuttingDown: () => boolean;
  startedAt: number;
}

export interface RunningHttpServer {
  app: Express;
  server: Server;
  url: string;
  mcp: McpRoutes;
  sse?: LegacySseRoutes;
  /** POST requests being served right now (tool calls and other MCP requests). */
  inFlight(): number;
  /** Stops accepting connections; open requests continue. */
  stopAccepting(): Promise<void>;
  /** Closes sessions, streams and every remaining connection. */
  close(): Promise<void>;
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy);
  let inFlight = 0;

  app.use(requestIdMiddleware());
  app.use((req, res, next) => {
    // Hand the accepted id to the protocol layer through the request itself.
    req.headers['x-request-id'] = String(res.locals.requestId);
    req.headers['x-fa-mcp-remote-address'] = req.ip ?? req.socket.remoteAddress ?? '';
    if (req.method === 'POST') {
      inFlight++;
      res.once('close', () => inFlight--);
    }
    next();
  });
  app.use(traceContextMiddleware());
  app.use(
    createHealthRouter({
      name: opts.core.serverInfo.name,
      version: opts.core.serverInfo.version,
      startedAt: opts.startedAt,
      checks: opts.readinessChecks,
      isShuttingDown: opts.isShuttingDown,
    }),
  );

  const guard = hostOriginGuard({
    enabled: opts.hostValidation.enabled,
    bindHost: opts.host,
    allowedHosts: opts.hostValidation.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
  });
  app.use((req, res, next) => {
    if (opts.isShuttingDown() && req.method === 'POST' && !req.get('mcp-session-id')) {
      res.setHeader('Connection', 'close');
      return sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Server is shutting down');
    }
    next();
  });

  const factory = { core: opts.core, live: opts.live, transport: 'http' as const, describeHttp: describeHttpRequest };
  const mcp = createMcpRoutes({
    factory,
    stateless: opts.stateless,
    responseMode: opts.responseMode,
    mapErrorStatus: opts.mapErrorStatus,
    maxPayloadBytes: opts.maxPayloadBytes,
    sessions: opts.sessions,
    eventStore: opts.eventStore,
  });
  app.use('/mcp', guard, ...jsonBody(opts.maxPayloadBytes), mcp.router);

  let sse: LegacySseRoutes | undefined;
  if (opts.legacySse) {
    sse = createLegacySseRoutes(factory, opts.sessions.maxSessions);
    app.use(['/sse', '/messages'], guard);
    app.use('/messages', ...jsonBody(opts.maxPayloadBytes));
    app.use(sse.router);
  }
  app.use(jsonBodyErrors);

  const server = createServer(app);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 15_000;
  server.requestTimeout = 0; // SSE streams are long-lived; slow-client limits come with the hardening work
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  const running: RunningHttpServer = {
    app,
    server,
    url: `http://${hostForUrl}:${addr.port}/mcp`,
    mcp,
    inFlight: () => inFlight,
    stopAccepting: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // server.close resolves only when all connections end; do not wait here
        setImmediate(resolve);
      }),
    async close() {
      await mcp.close();
      await sse?.close();
      server.closeAllConnections();
    },
  };
  if (sse) running.sse = sse;
  return running;
}
