/**
 * The HTTP server: an express app with the request-id, trace and DNS-rebinding
 * guards in front of the MCP endpoint (/mcp), the legacy SSE endpoints
 * (/sse, /messages), /health and /ready.
 */
import { createServer, type Server } from 'node:http';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { AuthRuntime } from '../../auth/auth-runtime.js';
import type { Core } from '../../core/core.js';
import type { HttpRouter } from '../../core/http-types.js';
import type { LiveServers } from '../../protocol/live-servers.js';
import type { TaskManager } from '../../tasks/task-manager.js';
import type { ModernEraSupport } from '../../protocol/modern-era.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import { listen, selfMcpUrl } from './listen.js';
import { trackGetStreams } from './get-streams.js';
import { jsonBody, jsonBodyErrors } from './body-parser.js';
import { answeringListener, type ErrorAnswerRoutes } from './error-answers.js';
import { corsPolicy, type CorsPolicyOptions } from './cors-policy.js';
import { describeHttpRequest } from './describe-request.js';
import { hostOriginCheck, hostOriginGuard } from './host-origin-guard.js';
import { createLegacySseRoutes, type LegacySseRoutes } from './legacy-sse-routes.js';
import { createMcpEndpoint, type RouteCounts } from './mcp-endpoint.js';
import { createModernRoutes } from './modern-routes.js';
import { createSessionRoutes } from './session-routes.js';
import type { SessionManager } from './session-manager.js';
import type { SessionShare } from './session-share.js';
import { getRequestId } from './request-id.js';
import { getRequestAuth } from '../../auth/request-auth.js';
import { supportedProtocolVersions } from '../../protocol/http-entry.js';
import type { SharedSessions } from '../../state/shared-sessions.js';
import type { SecurityHeadersOptions } from './security-headers.js';
import { createRequestFront, type RequestFrontOptions } from './request-front.js';
import { FrontResponse } from './front-response.js';
import { createFastLane } from './fast-lane.js';
import { createModernFastCall } from '../../protocol/modern-fast-call.js';
import { createSessionFastCall } from '../../protocol/session-fast-call.js';
import { SdkCodec } from '../../protocol/sdk-codec.js';
import { bodyReadTimeout, serverTimeoutOptions, type SlowClientTimeouts } from './slow-client-timeouts.js';
import { traceContextMiddleware } from './traceparent.js';
import { clientAddress, compileTrustProxy, type TrustProxySetting } from './trust-proxy.js';

/** A feature with routes of its own (the agent tester, agent-tester/mount.ts), mounted after the MCP routes. */
export interface RouteMount {
  mount(kit: { app: Express; guard: RequestHandler; auth?: RequestHandler; mcpUrl: () => string }): void;
}

export interface HttpServerOptions {
  core: Core;
  live: LiveServers;
  /** Tasks, when `mcp.tasks.enabled`. */
  tasks?: TaskManager;
  modern: ModernEraSupport;
  eventStore: IEventStore;
  /** mcp.sessions.store: postgres (state/shared-sessions.ts). */
  sharedSessions?: SharedSessions;
  host: string;
  port: number;
  /** `webServer.trustProxy` (trust-proxy.ts). */
  trustProxy: TrustProxySetting;
  stateless: boolean;
  legacySse: boolean;
  responseMode: 'json' | 'sse';
  mapErrorStatus: boolean;
  maxPayloadBytes: number;
  /** mcp.limits.maxJsonDepth */
  maxJsonDepth: number;
  sessions: { maxSessions: number; maxPerCaller?: number; idleTimeoutMs: number };
  hostValidation: { enabled: boolean; allowedHosts: string[] };
  allowedOrigins: string[];
  cors: Omit<CorsPolicyOptions, 'allowedOrigins'>;
  securityHeaders: SecurityHeadersOptions;
  timeouts: SlowClientTimeouts;
  /**
   * `/health` and `/ready` (ops/health.ts, built by the caller so this room imports nothing of ops):
   * mounted ahead of the Host/Origin check and authentication, as probes need.
   */
  health: Router;
  /** OAuth routes and the guard of the MCP endpoints (src/auth). */
  auth?: Pick<AuthRuntime, 'publicRouter' | 'mcpGuard' | 'enabled' | 'createAuthMW' | 'guardsAhead'>;
  /** `mcp.fastPath`: plain tools/call, prompts/get, resources/read and completion/complete served by the HTTP fast lane (fast-lane.ts). */
  fastPath?: boolean;
  /** Mounts extra routes (metrics, REST, OpenAPI) after the MCP endpoints. */
  mountRoutes?: (kit: RouteMountKit) => Promise<void>;
  /** The Agent Tester (src/agent-tester), when it is enabled. */
  agentTester?: RouteMount;
  /** Which paths answer errors in OAuth's and in the REST shape (error-answers.ts). */
  errorRoutes?: Omit<ErrorAnswerRoutes, 'logger'>;
  /** Told of every HTTP answer of 400 and above no JSON-RPC request's observation covered (request-front.ts): the audit trail's refusals. */
  unobserved?: RequestFrontOptions['unobserved'];
}


/** What the server hands to the operations routes while it assembles its app. */
export interface RouteMountKit {
  app: Express;
  guard: RequestHandler;
  body: RequestHandler[];
  auth?: RequestHandler;
}

/** What the core routes served (`mcp.fastPath`; zeros when it is off). */
export interface FastLaneStats {
  /** 2026-07-28 requests served by the core route (`core.modern`). */
  fastCalls: number;
  /** 2025-era session requests served by the core route, and resumptions of their streams. */
  sessionCalls: number;
  /** Requests the fast lane read that took any other route. */
  direct: number;
}

export interface RunningHttpServer {
  /** The express app: mount your own routes on it (behind `createAuthMW()` when they need the caller). */
  app: HttpRouter;
  server: Server;
  url: string;
  /** The 2025-era sessions of the endpoint (and this instance's side of the shared ones). */
  mcp: { sessions: SessionManager; share?: SessionShare };
  sse?: LegacySseRoutes;
  /** POST requests being served right now (tool calls and other MCP requests). */
  inFlight(): number;
  /** What the HTTP fast lane served (`mcp.fastPath`; zeros when it is off): see fast-lane.ts. */
  fastLane(): FastLaneStats;
  /** Requests the MCP endpoint served, by route (protocol/route.ts). */
  routes(): RouteCounts;
  /** Stops accepting connections (idle ones close, later responses say `Connection: close`); open requests continue. */
  stopAccepting(): Promise<void>;
  /** Ends the open GET event streams (2025-era session streams, legacy SSE), so their clients reconnect elsewhere. */
  endStreams(): number;
  /** Closes sessions, streams and every remaining connection. */
  close(): Promise<void>;
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const app = express();
  app.disable('x-powered-by');
  // One rule for express's req.ip and the fast lane's client address.
  const trustProxy = compileTrustProxy(opts.trustProxy);
  app.set('trust proxy', trustProxy);
  const serverOptions = serverTimeoutOptions(opts.timeouts); // validates before anything starts

  // Security headers, request id, client address, in-flight count (shared with the fast lane).
  let closing = false;
  const front = createRequestFront({
    securityHeaders: opts.securityHeaders,
    closing: () => closing,
    ...(opts.unobserved ? { unobserved: opts.unobserved, addressOf: (req) => clientAddress(req, trustProxy) ?? req.socket.remoteAddress ?? '' } : {}),
  });
  app.use(front.middleware);
  const streams = trackGetStreams();
  app.use(['/mcp', '/sse'], streams.middleware);
  app.use(traceContextMiddleware());
  app.use(corsPolicy({ ...opts.cors, allowedOrigins: opts.allowedOrigins }));
  app.use(opts.health);

  const hostRules = {
    enabled: opts.hostValidation.enabled,
    bindHost: opts.host,
    allowedHosts: opts.hostValidation.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
  };
  const guard = hostOriginGuard(hostRules);

  // What the core routes answer that the hand-written encoders do not write, encoded by the SDK (sdk-codec.ts).
  const codec = opts.fastPath ? new SdkCodec({ core: opts.core, modern: opts.modern, tasks: !!opts.tasks }) : undefined;
  const factory = {
    core: opts.core,
    live: opts.live,
    modern: opts.modern,
    transport: 'http' as const,
    describeHttp: describeHttpRequest,
    ...(opts.tasks ? { tasks: opts.tasks } : {}),
  };
  const logger = opts.core.logger;
  // The core routes' runners (mcp.fastPath): on sessions, and for 2026-07-28 requests.
  const sessionCall = codec && !opts.stateless ? createSessionFastCall({ core: opts.core, modern: opts.modern, describeHttp: describeHttpRequest, tasksOffered: !!opts.tasks, codec }) : undefined;
  const sessionRoutes = createSessionRoutes({
    factory,
    ...(sessionCall ? { sessionCall } : {}),
    responseMode: opts.responseMode,
    maxPayloadBytes: opts.maxPayloadBytes,
    sessions: opts.sessions,
    eventStore: opts.eventStore,
    mapErrorStatus: opts.mapErrorStatus,
    ...(opts.sharedSessions ? { shared: opts.sharedSessions } : {}),
    supportedProtocolVersions: supportedProtocolVersions(),
    logger,
  });
  const modernCall = codec && createModernFastCall({ core: opts.core, modern: opts.modern, codec, describeHttp: describeHttpRequest, tasksOffered: !!opts.tasks });
  const modernRoutes = createModernRoutes({
    factory,
    ...(modernCall ? { modernCall } : {}),
    responseMode: opts.responseMode,
    maxPayloadBytes: opts.maxPayloadBytes,
    mapErrorStatus: opts.mapErrorStatus,
  });
  const endpoint = createMcpEndpoint({
    sessions: sessionRoutes,
    modern: modernRoutes,
    ...(modernCall ? { core: { modern: modernCall, ...(sessionCall ? { session: sessionCall } : {}) } } : {}),
    stateless: opts.stateless,
    maxPayloadBytes: opts.maxPayloadBytes,
    logger,
  });
  // The express front of the endpoint: what the fast lane does not read (mcp-endpoint.ts serves both).
  const mcpRouter = express.Router();
  const viaExpress: RequestHandler = (req, res) =>
    endpoint.serve({
      req,
      res,
      body: req.method === 'POST' ? (req.body as unknown) : undefined,
      auth: getRequestAuth(req),
      remoteAddress: req.ip ?? req.socket.remoteAddress ?? '',
      requestId: getRequestId(req),
      front: 'express',
    });
  mcpRouter.post('/', viaExpress);
  mcpRouter.get('/', viaExpress);
  mcpRouter.delete('/', viaExpress);
  if (opts.auth) app.use(opts.auth.publicRouter);
  const authGuard = opts.auth?.mcpGuard ? [opts.auth.mcpGuard] : [];
  const readBody = bodyReadTimeout(opts.timeouts.bodyMs);
  app.use('/mcp', guard, ...authGuard, readBody, ...jsonBody(opts.maxPayloadBytes, opts.maxJsonDepth), mcpRouter);

  let sse: LegacySseRoutes | undefined;
  if (opts.legacySse) {
    sse = createLegacySseRoutes(factory, opts.sessions);
    app.use(['/sse', '/messages'], guard, ...authGuard);
    app.use('/messages', readBody, ...jsonBody(opts.maxPayloadBytes, opts.maxJsonDepth));
    app.use(sse.router);
  }
  // The Agent Tester connects to this server's own /mcp once it listens (src/agent-tester).
  let listenUrl = '';
  opts.agentTester?.mount({ app, guard, ...(opts.auth?.enabled ? { auth: opts.auth.createAuthMW() } : {}), mcpUrl: () => selfMcpUrl(`${listenUrl}/mcp`) });
  // Operations routes (metrics, REST under its base path, OpenAPI, docs): ops/operations.ts.
  await opts.mountRoutes?.({
    app,
    guard,
    body: [readBody, ...jsonBody(opts.maxPayloadBytes, opts.maxJsonDepth)],
  });
  // Body refusals on the MCP endpoints, with their JSON-RPC codes; everything else, and any path
  // nobody serves, the final answer (JSON in the route family's shape, never express's HTML page).
  app.use(['/mcp', '/messages'], jsonBodyErrors);
  const appListener = answeringListener(app, { ...opts.errorRoutes, logger: opts.core.logger });

  const lane =
    codec &&
    createFastLane({
      app: appListener,
      front,
      hostCheck: hostOriginCheck(hostRules),
      trustProxy,
      maxPayloadBytes: opts.maxPayloadBytes,
      maxJsonDepth: opts.maxJsonDepth,
      bodyTimeoutMs: opts.timeouts.bodyMs,
      ...(opts.auth?.mcpGuard ? { guard: opts.auth.mcpGuard } : {}),
      closed: !!opts.auth?.mcpGuard && !opts.auth.guardsAhead,
      endpoint,
      logger: opts.core.logger,
    });
  // FrontResponse: the fast lane's responses write the front's headers with their own (front-response.ts).
  const server = createServer({ ...serverOptions, ServerResponse: FrontResponse }, lane ? lane.listener : appListener);
  const baseUrl = await listen(server, opts.port, opts.host);
  listenUrl = baseUrl;

  const running: RunningHttpServer = {
    app,
    server,
    url: `${baseUrl}/mcp`,
    mcp: { sessions: sessionRoutes.sessions, ...(sessionRoutes.share ? { share: sessionRoutes.share } : {}) },
    inFlight: () => front.inFlight(),
    fastLane: () => {
      const counts = endpoint.counts();
      return {
        fastCalls: counts['core.modern'] ?? 0,
        sessionCalls: (counts['core.session'] ?? 0) + (counts['core.session-resume'] ?? 0),
        direct: endpoint.laneToOthers(),
      };
    },
    routes: () => ({ ...endpoint.counts() }),
    stopAccepting: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        // Idle now: closed. A response under way ends its connection itself (Connection: close when it
        // began after this; else the remaining connections close with close() after the grace).
        server.closeIdleConnections();
        // server.close resolves only when all connections end; do not wait here
        setImmediate(resolve);
      }),
    endStreams: () => streams.endAll(),
    async close() {
      await sessionRoutes.close();
      await modernRoutes.close();
      await sse?.close();
      server.closeAllConnections();
    },
  };
  if (sse) running.sse = sse;
  return running;
}
