/**
 * POST/GET/DELETE /mcp: routes each request by protocol era. 2025-era traffic
 * goes to its Streamable HTTP session (or to the stateless path when configured);
 * 2026-07-28 traffic goes to the per-request handler. Both build their server
 * instances from the same factory over the same core.
 */
import { randomUUID } from 'node:crypto';
import { createMcpHandler, InMemoryServerEventBus, isLegacyRequest, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport, type McpHttpHandler } from '../../protocol/sdk-server.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { MCP_ERROR_CODES, PayloadTooLargeError } from '../../core/errors.js';
import type { HttpRouter } from '../../core/http-types.js';
import { fromSdkAuthInfo, sdkAuthOf } from '../../protocol/auth-info.js';
import { runSdkServed, sdkServedRequest } from '../../protocol/sdk-served-methods.js';
import type { AuthInfo } from '../../core/request-context.js';
import { buildServer, type ServerFactoryOptions } from '../../protocol/server-factory.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { SessionManager, type Session } from './session-manager.js';
import type { SessionFastCall } from '../../protocol/session-fast-call.js';
import type { SharedSessions } from '../../state/shared-sessions.js';
import { openSession, restoreSession, type SessionBuildDeps } from './session-open.js';
import { SessionShare } from './session-share.js';
import { contentLengthOf } from './body-length.js';
import { nodeHeaderReader } from './node-headers.js';
import { jsonExchange } from './session-exchange.js';
import type { FastCall } from '../../protocol/fast-call-shape.js';
import { MODERN_REVISION as FAST_PATH_REVISION } from '../../protocol/sdk-codec.js';
import { requestOwner, sessionCaller } from './session-owner.js';
import { parsedBodyRequest, streamedBodyRequest } from './web-request.js';
import { writeWebResponse } from './web-response.js';

export interface McpRoutesOptions {
  factory: ServerFactoryOptions;
  /** The session fast path (mcp.fastPath): plain tools/call, prompts/get, resources/read and completion/complete on sessions served past the SDK's transport. */
  sessionCall?: SessionFastCall;
  stateless: boolean;
  responseMode: 'json' | 'sse';
  maxPayloadBytes: number;
  sessions: { maxSessions: number; maxPerCaller?: number; idleTimeoutMs: number };
  eventStore: IEventStore;
  /** See WriteOptions.mapErrorStatus. */
  mapErrorStatus: boolean;
  /** mcp.sessions.store: postgres: sessions any instance restores and serves (session-share.ts). */
  shared?: SharedSessions;
}

export interface McpRoutes {
  router: HttpRouter;
  sessions: SessionManager;
  /** mcp.sessions.store: postgres: this instance's side of the shared sessions. */
  share?: SessionShare;
  /**
   * Serves an MCP request as the router does, for a request that did not come
   * through express (the HTTP fast lane): the parsed body on `req.body`, the
   * verified caller on `req.auth`.
   */
  serve(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Serves a POST on a session when it is a call the session fast path takes
   * (body on `req.body`, caller on `req.auth`); false leaves it to `serve`.
   */
  serveSessionCall(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Serves a GET resuming the event stream of a call the session fast path is serving; false leaves it to `serve`. */
  resumeSessionCall(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
}

const isInitialize = (body: unknown): boolean =>
  !!body && typeof body === 'object' && !Array.isArray(body) && (body as { method?: unknown }).method === 'initialize';

export function createMcpRoutes(opts: McpRoutesOptions): McpRoutes {
  const { factory } = opts;
  const logger = factory.core.logger;
  const share = opts.shared
    ? new SessionShare({ shared: opts.shared, idleTimeoutMs: opts.sessions.idleTimeoutMs, logger, supportedProtocolVersions: factory.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS })
    : undefined;
  const sessions = new SessionManager({ ...opts.sessions, logger, ...(share ? { shared: share } : {}) });
  share?.attach(sessions);
  const perRequest = (mode: 'reject'): McpHttpHandler =>
    // Object.assign, not `{ ...factory, trackLive }`, for every request: SPREAD_FIRST in protocol/client-channel.ts.
    createMcpHandler(async (rc) => (await buildServer(Object.assign({}, factory, { trackLive: false }), rc.era === 'modern' ? '2026' : '2025')).server, {
      legacy: mode,
      // subscriptions/listen streams read the bus that handle.notifyListChanged/notifyResourceUpdated publish on
      bus: (factory.live.bus ??= new InMemoryServerEventBus()),
      maxRequestBodySize: opts.maxPayloadBytes,
      onerror: (err) => logger.debug({ err }, 'per-request handler error'),
    });
  const modern = perRequest('reject');
  const router = express.Router();
  const write = (res: ServerResponse, response: Response) => writeWebResponse(res, response, { mapErrorStatus: opts.mapErrorStatus });

  // The caller verified by the auth middleware goes to the SDK as authInfo (never read from headers there).
  type SdkAuth = ReturnType<typeof sdkAuthOf>;
  // Object.assign, not `{ ...o, authInfo }` (SPREAD_FIRST in protocol/client-channel.ts).
  const withAuth = <T extends object>(o: T, authInfo: SdkAuth) => (authInfo ? Object.assign({}, o, { authInfo }) : o);
  // server/discover and subscriptions/listen are answered by the SDK's entry itself: the pipeline runs around it.
  const served = { core: factory.core, transport: 'http' as const, ...(factory.describeHttp ? { describeHttp: factory.describeHttp } : {}) };
  const modernFetch = async (webReq: Request, body: unknown, authInfo: SdkAuth): Promise<Response> => {
    const fetch = () => modern.fetch(webReq, withAuth({ parsedBody: body }, authInfo));
    const request = sdkServedRequest(body);
    if (!request) return fetch();
    const auth = fromSdkAuthInfo(authInfo);
    const outcome = await runSdkServed(served, request, { headers: webReq.headers, signal: webReq.signal, ...(auth ? { auth } : {}) }, fetch);
    return 'served' in outcome ? outcome.served : Response.json(outcome.error, { status: 200 });
  };

  const serveSession = async (session: Session, webReq: Request, res: ServerResponse, parsedBody: unknown, authInfo: SdkAuth) => {
    // Only POSTs are work in progress. The standalone GET stream stays open for the
    // session's whole life, so counting it would exempt every SDK client (which
    // always opens one) from the idle timeout and from eviction at the cap.
    const isWork = webReq.method === 'POST';
    if (isWork) session.inFlight++;
    // Cancellations of calls the session fast path serves (the SDK's dispatcher does not know them).
    if (isWork) session.fast?.link.calls.cancelFrom(parsedBody);
    try {
      const response = await session.transport.handleRequest(webReq, withAuth(parsedBody === undefined ? {} : { parsedBody }, authInfo));
      // The client's GET stream is here now: what the server sends outside requests is delivered from this copy.
      if (webReq.method === 'GET' && response.status === 200) share?.tookStream(session);
      await write(res, response);
    } finally {
      if (isWork) session.inFlight--;
      session.lastSeen = Date.now();
    }
  };

  const openNew = async (webReq: Request, req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: SdkAuth) => {
    const owner = requestOwner(req);
    const caller = sessionCaller(req);
    if (!(await sessions.reserve(caller))) {
      sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active sessions; try again later');
      return;
    }
    // The id is chosen here so the session's events live under it (see event-store-session.ts).
    const opened = await openSession(buildDeps, { id: randomUUID(), caller, ...(owner !== undefined ? { owner } : {}) });
    await write(res, await opened.initialize(webReq, body, authInfo));
  };

  /** A session this instance does not hold: restored from the shared store when there is one (same owner check). */
  const restore = async (id: string, owner: string | undefined, authInfo: SdkAuth, res: ServerResponse): Promise<Session | undefined> => {
    const found = share && !sessions.peek(id) ? await share.restore(id, owner, (stored) => restoreSession(buildDeps, stored, authInfo)) : 'unknown';
    if (found === 'full') sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active sessions; try again later');
    else if (found === 'unknown') sendJsonRpcError(res, 404, MCP_ERROR_CODES.INVALID_REQUEST, 'Session not found or expired');
    else return sessions.claim(id, owner);
    return undefined;
  };

  // 2025-era stateless: a fresh transport and server for each POST, answered as configured.
  const serveStateless = async (webReq: Request, res: ServerResponse, body: unknown, authInfo: SdkAuth) => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: opts.responseMode === 'json' });
    const built = await buildServer(Object.assign({}, factory, { trackLive: false, requestStreams: opts.responseMode === 'sse' }), '2025');
    await built.server.connect(transport);
    try {
      await write(res, await transport.handleRequest(webReq, withAuth({ parsedBody: body }, authInfo)));
    } finally {
      await built.server.close().catch(() => undefined);
    }
  };

  // The session fast path (protocol/session-fast-call.ts), on sessions only.
  const sessionCall = !opts.stateless ? opts.sessionCall : undefined;
  const buildDeps: SessionBuildDeps = {
    // One options object for every session's server instance (tracked for notifications; server-to-client
    // requests on the request's own stream with SSE responses), not a copy per session.
    factory: { ...factory, trackLive: true, requestStreams: opts.responseMode === 'sse' },
    responseMode: opts.responseMode,
    eventStore: opts.eventStore,
    sessions,
    ...(sessionCall ? { sessionCall } : {}),
    ...(share ? { share } : {}),
  };
  const fastSession = (req: IncomingMessage) => {
    const id = req.headers['mcp-session-id'];
    return typeof id === 'string' ? sessions.claim(id, requestOwner(req)) : undefined;
  };
  /** A protocol version header the session transport accepts as it is (anything else is the transport's to answer). */
  const plainVersion = (version: unknown): version is string =>
    typeof version === 'string' && version !== FAST_PATH_REVISION && SUPPORTED_PROTOCOL_VERSIONS.includes(version);

  const runSessionCall = async (session: Session, call: FastCall, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const fast = session.fast as NonNullable<Session['fast']>;
    session.inFlight++;
    try {
      const exchangeOpts = { res, sessionId: session.id, mapErrorStatus: opts.mapErrorStatus };
      // The SDK primes resumable streams for clients of 2025-11-25 and later.
      const exchange = fast.streams ? fast.streams.exchange(exchangeOpts, (req.headers['mcp-protocol-version'] as string) >= '2025-11-25') : jsonExchange(exchangeOpts);
      const auth = (req as { auth?: AuthInfo }).auth;
      try {
        await sessionCall?.serve(call, { headers: nodeHeaderReader(req.headers, contentLengthOf(req, body)), ...(auth ? { auth } : {}) }, fast.link, exchange);
      } catch (err) {
        logger.error({ err }, 'MCP HTTP request failed');
        // An event stream already begun is ended (and forgotten); otherwise a plain 500.
        if (res.headersSent) exchange.abandon();
        else sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
      }
    } finally {
      session.inFlight--;
      session.lastSeen = Date.now();
    }
  };
  const startSessionCall = (session: Session, call: FastCall, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    runSessionCall(session, call, req, res, body).catch((err: unknown) => {
      logger.error({ err }, 'MCP HTTP request failed');
      sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
    });
    return true;
  };
  const serveSessionCall = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if (!sessionCall) return false;
    const body = (req as { body?: unknown }).body;
    const call = sessionCall.read(body);
    const accept = req.headers.accept ?? '';
    // What the transport would refuse (Accept, protocol version), it answers itself.
    if (!call || !plainVersion(req.headers['mcp-protocol-version']) || !accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
    const session = fastSession(req);
    if (!session?.fast) return false;
    const takes = sessionCall.takes(call);
    if (typeof takes === 'boolean') return takes && startSessionCall(session, call, req, res, body);
    return takes.then((yes) => yes && startSessionCall(session, call, req, res, body));
  };
  const resumeSessionCall = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const lastEventId = req.headers['last-event-id'];
    const version = req.headers['mcp-protocol-version'];
    if (!sessionCall || typeof lastEventId !== 'string' || (version !== undefined && !plainVersion(version))) return false;
    if (!(req.headers.accept ?? '').includes('text/event-stream')) return false;
    const session = fastSession(req);
    if (!session?.fast?.streams) return false;
    return session.fast.streams.resume(lastEventId, res);
  };

  // Express requests and the fast lane's alike: only node's request and response are used here.
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body: unknown = req.method === 'POST' ? (req as { body?: unknown }).body : undefined;
    // Aborted when the client goes away before the answer: the SDK then cancels the call
    // (the 2026-07-28 per-request path and stateless 2025 have no other way to hear of it).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const webReq = body === undefined ? await streamedBodyRequest(req, opts.maxPayloadBytes, gone.signal) : parsedBodyRequest(req, body, gone.signal);
    const authInfo = sdkAuthOf(req);
    if (opts.stateless) {
      if (req.method === 'POST' && !(await isLegacyRequest(webReq, body, { maxRequestBodySize: opts.maxPayloadBytes }))) {
        return write(res, await modernFetch(webReq, body, authInfo));
      }
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST'); // a 405 must say what is allowed (RFC 9110, 15.5.6)
        return sendJsonRpcError(res, 405, MCP_ERROR_CODES.INVALID_REQUEST, 'Method not allowed: this endpoint is stateless');
      }
      return serveStateless(webReq, res, body, authInfo);
    }

    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    if (sessionId) {
      const owner = requestOwner(req);
      const session = sessions.claim(sessionId, owner) ?? (await restore(sessionId, owner, authInfo, res));
      if (!session) {
        if (!res.headersSent) sendJsonRpcError(res, 404, MCP_ERROR_CODES.INVALID_REQUEST, 'Session not found or expired');
        return;
      }
      return serveSession(session, webReq, res, body, authInfo);
    }
    if (req.method === 'POST' && !(await isLegacyRequest(webReq, body, { maxRequestBodySize: opts.maxPayloadBytes }))) {
      return write(res, await modernFetch(webReq, body, authInfo));
    }
    if (req.method === 'POST' && isInitialize(body)) return openNew(webReq, req, res, body, authInfo);
    // No JSON parser took the body (its Content-Type is not JSON): answered as the SDK answers it on a
    // session and on 2026-07-28 (415, -32000), not as a missing session.
    if (req.method === 'POST' && body === undefined) {
      return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (req.method === 'POST') {
      return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Bad Request: no valid session id; send initialize first');
    }
    return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header is required');
  };

  const wrap = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      // A body past mcp.limits.maxPayloadBytes that no JSON parser read (another Content-Type, chunked):
      // the client's error, answered as the parser's refusal is, and not logged as the server's.
      if (err instanceof PayloadTooLargeError) {
        if (res.headersSent) return;
        res.setHeader('Connection', 'close');
        return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, `Request body exceeds ${opts.maxPayloadBytes} bytes`, { maxPayloadBytes: opts.maxPayloadBytes });
      }
      logger.error({ err }, 'MCP HTTP request failed');
      sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
    });
  };
  router.post('/', wrap);
  router.get('/', wrap);
  router.delete('/', wrap);

  return {
    router,
    sessions,
    ...(share ? { share } : {}),
    serve: wrap,
    serveSessionCall,
    resumeSessionCall,
    async close() {
      share?.close();
      await sessions.closeAll();
      await modern.close();
    },
  };
}
