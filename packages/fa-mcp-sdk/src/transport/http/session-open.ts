/**
 * Builds one 2025-era Streamable HTTP session: the SDK transport, the session's
 * server instance (server-factory.ts), what the session fast path needs, and the
 * close handling. A session is either opened by its client's `initialize`, or
 * restored on an instance that never saw it (`mcp.sessions.store: postgres`):
 * then the transport is fed the stored `initialize` and `notifications/initialized`
 * internally (answers discarded, nothing kept in the event store), so the SDK's
 * server knows the client's capabilities and version, and the session's log
 * level and subscriptions are applied again.
 */
import { connectSession, createSessionTransport, type SessionTransport } from '../../protocol/http-entry.js';
import type { AuthInfo } from '../../core/request-context.js';
import { handshakeReplay } from '../../protocol/handshake-replay.js';
import { buildServer, type ServerFactoryOptions } from '../../protocol/server-factory.js';
import { SessionCalls } from '../../protocol/session-calls.js';
import { sessionClosed, type SessionFastCall } from '../../protocol/session-fast-call.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import type { IEventStore } from '../../state/event-store-memory.js';
import { sessionEventStore } from '../../state/event-store-session.js';
import type { SessionInitialize, StoredSession } from '../../state/session-store.js';
import { SessionStreams } from './session-exchange.js';
import type { Session, SessionCloseScope, SessionManager } from './session-manager.js';
import type { SessionShare } from './session-share.js';

export interface SessionBuildDeps {
  /** The options of every session's server instance (trackLive, and requestStreams with SSE responses), shared by them. */
  factory: ServerFactoryOptions;
  responseMode: 'json' | 'sse';
  eventStore: IEventStore;
  sessions: SessionManager;
  sessionCall?: SessionFastCall;
  /** The shared store (mcp.sessions.store: postgres); absent with the memory default. */
  share?: SessionShare;
}

export interface SessionSeed {
  id: string;
  owner?: string;
  caller: string;
}

/** A session built, not yet initialized: `initialize` on its transport adds it to the manager. */
export interface BuiltSession {
  transport: SessionTransport;
  /** Answers the client's initialize (the session is added and, with a shared store, recorded first). */
  initialize(webReq: Request, body: unknown, auth: AuthInfo | undefined): Promise<Response>;
}

async function build(deps: SessionBuildDeps, seed: SessionSeed, restored: boolean, onInitialized: (session: Session) => Promise<void>) {
  const { factory, sessions, share } = deps;
  const logger = factory.core.logger;
  const events = sessionEventStore(deps.eventStore, seed.id);
  // While a restored session replays its initialize, nothing is kept (events.muted): those answers go nowhere.
  let scope: SessionCloseScope = 'end';
  const transport = createSessionTransport({
    id: seed.id,
    responseMode: deps.responseMode,
    eventStore: events,
    onInitialized: () => onInitialized(session),
    // DELETE: the session ends everywhere.
    onDeleted: async () => {
      sessions.forget(seed.id);
      await share?.ended(seed.id);
    },
    onClosed: () => {
      calls.abortAll(sessionClosed());
      sessions.forget(seed.id);
      built.dispose(scope);
      // A copy closed here only leaves the session's events to the instances serving it on.
      if (scope === 'end') events.drop().catch((err: unknown) => logger.warn({ err }, 'could not drop the events of a closed session'));
    },
  });
  // Server-to-client requests ride the request's own SSE stream; with JSON responses there is none (GET stream).
  const requestStreams = deps.responseMode === 'sse';
  const built = await buildServer(share ? { ...factory, sessionChanged: (change) => share.changed(seed.id, change) } : factory, '2025', seed.id);
  // What the session fast path needs; the routing goes on before the server connects (session-calls.ts).
  const calls = new SessionCalls();
  const fast = deps.sessionCall && {
    link: { id: seed.id, server: built.server, logLevel: built.logLevel, calls, requestStreams, session: built.session },
    ...(requestStreams ? { streams: new SessionStreams(events) } : {}),
  };
  const session: Session = {
    id: seed.id,
    transport,
    lastSeen: Date.now(),
    inFlight: 0,
    caller: seed.caller,
    ...(seed.owner !== undefined ? { owner: seed.owner } : {}),
    ...(fast ? { fast } : {}),
    close: async (how) => {
      scope = how;
      if (how === 'end') await share?.ended(seed.id);
      else await share?.released(session);
      await transport.close();
    },
  };
  // Filters of the connection (protocol/wire-adapter.ts), after the instance's own (observation first): what the
  // server sends for calls the core route serves goes to their exchange, what it sends outside requests to the
  // instance holding the session's stream.
  if (fast) built.server.wire.push(calls.filter);
  if (share) {
    const { copy, filter } = share.copyOf(transport, session, built.restoreState);
    // Opened here: this copy delivers until the client opens its GET stream elsewhere.
    copy.holdsStream = !restored;
    session.shared = copy;
    // The session handle hands what it sends to the stream's holder while this copy is not it.
    if (built.session) built.session.copy = copy;
    built.server.wire.push(filter);
  }
  await connectSession(built.server, transport);
  return { session, transport, built, events };
}

/**
 * What the client is told when its session could not be recorded in the shared store: retry later.
 * (Thrown through the SDK's transport, the failure came back as `-32700 Parse error`, HTTP 400, with
 * the database's own message in `data`.)
 */
function unrecordedAnswer(body: unknown): Response {
  const id = (body as { id?: unknown } | null)?.id;
  const error = { code: MCP_ERROR_CODES.UPSTREAM_UNAVAILABLE, message: 'The session could not be stored; try again' };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error }), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
  });
}

/** A new session, for the client's initialize. */
export async function openSession(deps: SessionBuildDeps, seed: SessionSeed): Promise<BuiltSession> {
  // Only what the session needs for its life is held by what its transport keeps (the callbacks):
  // the client's initialize params only for the shared store, and only until they are recorded.
  let initialize: SessionInitialize | undefined;
  let unrecorded = false;
  const { transport } = await build(deps, seed, false, async (session) => {
    // Recorded before the answer: the client may send its next request to any instance.
    const params = initialize;
    initialize = undefined;
    if (deps.share && params) {
      try {
        await deps.share.record(session, params);
      } catch (err) {
        unrecorded = true;
        deps.factory.core.logger.error({ err, sessionId: session.id }, 'a new session could not be stored (mcp.sessions.store: postgres); its initialize is refused');
        throw err; // the SDK's transport stops here; its answer is replaced below
      }
    }
    deps.sessions.add(session);
  });
  return {
    transport,
    initialize: async (webReq, body, auth) => {
      if (deps.share) initialize = (body as { params?: SessionInitialize }).params;
      const response = await transport.handleRequest({ webReq, body, auth });
      if (!unrecorded) return response;
      // Not added anywhere, not stored: the session never existed for the client.
      await transport.close();
      return unrecordedAnswer(body);
    },
  };
}

/** A session another instance opened, rebuilt from its row; added to the manager. */
export async function restoreSession(deps: SessionBuildDeps, stored: StoredSession, auth: AuthInfo | undefined): Promise<Session> {
  const made = await build(deps, { id: stored.id, caller: stored.caller, ...(stored.owner !== undefined ? { owner: stored.owner } : {}) }, true, async (session) => {
    deps.sessions.add(session);
  });
  const url = 'http://localhost/mcp';
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const replay = async (message: Record<string, unknown>, extra: Record<string, string> = {}) => {
    const webReq = new Request(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(message) });
    const response = await made.transport.handleRequest({ webReq, body: message, auth });
    await response.text();
    if (response.status >= 300) throw new Error(`restoring session ${stored.id}: ${String(message.method)} answered ${response.status}`);
  };
  made.events.muted = true;
  try {
    const handshake = handshakeReplay(stored.initialize);
    await replay(handshake.initialize);
    await replay(handshake.initialized, { 'mcp-session-id': stored.id, 'mcp-protocol-version': stored.protocolVersion });
  } catch (err) {
    await made.session.close('local');
    throw err;
  } finally {
    made.events.muted = false;
  }
  made.built.restoreState({ ...(stored.logLevel !== undefined ? { logLevel: stored.logLevel } : {}), subscriptions: stored.subscriptions });
  return made.session;
}
