/**
 * The routes of 2025-era Streamable HTTP sessions (protocol/route.ts), carried
 * out: `sdk.session-open` (an initialize opens a session), `sdk.session` (the
 * session's SDK transport serves the request, the stream or the DELETE),
 * `core.session` (the core runner serves a plain call on the session:
 * protocol/session-fast-call.ts) and `core.session-resume` (a Last-Event-ID
 * resumption of such a call's stream). And the facts the decision needs of a
 * session: whether the session named is held here with what the core route
 * needs, and whether a Last-Event-ID names a stream the core route serves.
 * A session this instance does not hold is restored from the shared store
 * when there is one (same owner check), otherwise answered 404.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CoreLogger } from '../../core/core.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { isLegacyVersion } from '../../protocol/http-entry.js';
import type { FastCall } from '../../protocol/fast-call-shape.js';
import type { ServerFactoryOptions } from '../../protocol/server-factory.js';
import type { SessionFastCall } from '../../protocol/session-fast-call.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import type { SharedSessions } from '../../state/shared-sessions.js';
import { coreRequestOf, goneSignal, webRequestOf, type HttpExchange } from './http-exchange.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { jsonExchange, type ResumableStream } from './session-exchange.js';
import { SessionManager, type Session } from './session-manager.js';
import { openSession, restoreSession, type SessionBuildDeps } from './session-open.js';
import { sessionCaller } from './session-owner.js';
import { SessionShare } from './session-share.js';
import { writeWebResponse } from './web-response.js';

export interface SessionRoutesOptions {
  factory: ServerFactoryOptions;
  /** The core route's runner on sessions (mcp.fastPath); absent: every session request is the SDK's. */
  sessionCall?: SessionFastCall;
  responseMode: 'json' | 'sse';
  maxPayloadBytes: number;
  sessions: { maxSessions: number; maxPerCaller?: number; idleTimeoutMs: number };
  eventStore: IEventStore;
  mapErrorStatus: boolean;
  /** mcp.sessions.store: postgres: sessions any instance restores and serves (session-share.ts). */
  shared?: SharedSessions;
  supportedProtocolVersions: readonly string[];
  logger: CoreLogger;
}

export interface SessionRoutes {
  sessions: SessionManager;
  share?: SessionShare;
  /** The session named, when it is held here with what the core route needs (the request's headers as the transport takes them). */
  coreSessionOf(exchange: HttpExchange): Session | undefined;
  /** The stream of a call the core route serves on the session named, when a GET's Last-Event-ID names it. */
  coreStreamOf(exchange: HttpExchange): Promise<{ session: Session; stream: ResumableStream } | undefined>;
  open(exchange: HttpExchange): Promise<void>;
  serve(exchange: HttpExchange): Promise<void>;
  serveCall(exchange: HttpExchange, session: Session, call: FastCall): Promise<void>;
  resume(exchange: HttpExchange, found: { session: Session; stream: ResumableStream }): void;
  close(): Promise<void>;
}

const ownerOf = (exchange: HttpExchange): string | undefined => {
  const subject = exchange.auth?.subject;
  return typeof subject === 'string' && subject !== '' ? subject : undefined;
};

export function createSessionRoutes(opts: SessionRoutesOptions): SessionRoutes {
  const { factory, logger, sessionCall } = opts;
  const share = opts.shared
    ? new SessionShare({
        shared: opts.shared,
        idleTimeoutMs: opts.sessions.idleTimeoutMs,
        logger,
        supportedProtocolVersions: opts.supportedProtocolVersions,
        onEnded: (id) => factory.live.ended(id),
      })
    : undefined;
  // Session handles reach the sessions this instance holds no copy of through the store (protocol/live-session.ts).
  if (share) factory.live.remote = share;
  const sessions = new SessionManager({ ...opts.sessions, logger, ...(share ? { shared: share } : {}) });
  share?.attach(sessions);
  const write = (res: ServerResponse, response: Response) => writeWebResponse(res, response, { mapErrorStatus: opts.mapErrorStatus });
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
  const sessionIdOf = (exchange: HttpExchange): string | undefined => {
    const id = exchange.req.headers['mcp-session-id'];
    return typeof id === 'string' ? id : undefined;
  };
  const claimed = (exchange: HttpExchange): Session | undefined => {
    const id = sessionIdOf(exchange);
    return id === undefined ? undefined : sessions.claim(id, ownerOf(exchange));
  };

  /** A session this instance does not hold: restored from the shared store when there is one (same owner check). */
  const restore = async (id: string, exchange: HttpExchange): Promise<Session | undefined> => {
    const { res } = exchange;
    const owner = ownerOf(exchange);
    const found = share && !sessions.peek(id) ? await share.restore(id, owner, (stored) => restoreSession(buildDeps, stored, exchange.auth)) : 'unknown';
    if (found === 'full') sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active sessions; try again later');
    else if (found === 'unknown') sendJsonRpcError(res, 404, MCP_ERROR_CODES.INVALID_REQUEST, 'Session not found or expired');
    else return sessions.claim(id, owner);
    return undefined;
  };

  return {
    sessions,
    ...(share ? { share } : {}),

    coreSessionOf(exchange) {
      const h = exchange.req.headers;
      const accept = h.accept ?? '';
      // What the transport would refuse (Accept, protocol version), it answers itself.
      if (!isLegacyVersion(h['mcp-protocol-version']) || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
      const session = claimed(exchange);
      return session?.fast ? session : undefined;
    },

    async coreStreamOf(exchange) {
      const h = exchange.req.headers;
      const lastEventId = h['last-event-id'];
      const version = h['mcp-protocol-version'];
      if (typeof lastEventId !== 'string' || (version !== undefined && !isLegacyVersion(version)) || !(h.accept ?? '').includes('text/event-stream')) return undefined;
      const session = claimed(exchange);
      const stream = await session?.fast?.streams?.streamOf(lastEventId);
      return session && stream ? { session, stream } : undefined;
    },

    async open(exchange) {
      const { res, body } = exchange;
      const owner = ownerOf(exchange);
      const caller = sessionCaller(owner, exchange.remoteAddress);
      if (!(await sessions.reserve(caller))) {
        sendJsonRpcError(res, 503, MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, 'Too many active sessions; try again later');
        return;
      }
      // The id is chosen here so the session's events live under it (see event-store-session.ts).
      const opened = await openSession(buildDeps, { id: randomUUID(), caller, ...(owner !== undefined ? { owner } : {}) });
      const webReq = await webRequestOf(exchange, opts.maxPayloadBytes, goneSignal(res));
      await write(res, await opened.initialize(webReq, body, exchange.auth));
    },

    async serve(exchange) {
      const { req, res, body } = exchange;
      const id = sessionIdOf(exchange) as string;
      const session = sessions.claim(id, ownerOf(exchange)) ?? (await restore(id, exchange));
      if (!session) return;
      // Aborted when the client goes away before the answer: the SDK then cancels the call.
      const webReq = await webRequestOf(exchange, opts.maxPayloadBytes, goneSignal(res));
      // Only POSTs are work in progress. The standalone GET stream stays open for the session's whole
      // life, so counting it would exempt every SDK client (which always opens one) from the idle
      // timeout and from eviction at the cap.
      const isWork = req.method === 'POST';
      if (isWork) session.inFlight++;
      // Cancellations of calls the core route serves (the SDK's dispatcher does not know them).
      if (isWork) session.fast?.link.calls.cancelFrom(body);
      try {
        const response = await session.transport.handleRequest({ webReq, body, auth: exchange.auth });
        // The client's GET stream is here now: what the server sends outside requests is delivered from this copy.
        if (req.method === 'GET' && response.status === 200) share?.tookStream(session);
        await write(res, response);
      } finally {
        if (isWork) session.inFlight--;
        session.lastSeen = Date.now();
      }
    },

    async serveCall(exchange, session, call) {
      const { req, res } = exchange;
      const fast = session.fast as NonNullable<Session['fast']>;
      session.inFlight++;
      try {
        const exchangeOpts = { res, sessionId: session.id, mapErrorStatus: opts.mapErrorStatus };
        // The SDK primes resumable streams for clients of 2025-11-25 and later.
        const answer = fast.streams ? fast.streams.exchange(exchangeOpts, (req.headers['mcp-protocol-version'] as string) >= '2025-11-25') : jsonExchange(exchangeOpts);
        try {
          await sessionCall?.serve(call, coreRequestOf(exchange), fast.link, answer);
        } catch (err) {
          logger.error({ err }, 'MCP HTTP request failed');
          // An event stream already begun is ended (and forgotten); otherwise a plain 500.
          if (res.headersSent) answer.abandon();
          else sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
        }
      } finally {
        session.inFlight--;
        session.lastSeen = Date.now();
      }
    },

    resume(exchange, { session, stream }) {
      session.fast?.streams?.resume(stream, exchange.req.headers['last-event-id'] as string, exchange.res);
    },

    async close() {
      share?.close();
      await sessions.closeAll();
    },
  };
}
