/**
 * What the HTTP transport asks of the SDK, as small interfaces of the
 * framework's own (transport/ names no SDK class): the era of a request, the
 * per-request entry of the 2026-07-28 revision, a 2025-era session's
 * transport, and the stateless 2025-era transport. The SDK's classes are made
 * here; the caller (already verified by the HTTP guard) is handed to them as
 * the SDK's `authInfo`.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  InMemoryServerEventBus,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type EventStore,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import type { CoreServer } from './core-server.js';
import type { AuthInfo } from '../core/request-context.js';
import { toSdkAuthInfo } from './auth-info.js';
import { observedListen } from './listen-observe.js';
import { runSdkServed, sdkServedRequest } from './sdk-served-methods.js';
import { buildServer, type ServerFactoryOptions } from './server-factory.js';
import { LEGACY_PROTOCOL_VERSIONS } from './wire-constants.js';

/** What one HTTP exchange gives an SDK entry: the web Request, the body parsed (if any) and the verified caller. */
export interface EntryRequest {
  webReq: Request;
  /** The parsed JSON body; undefined when none was parsed (the entry reads the Request's own). */
  body: unknown;
  auth: AuthInfo | undefined;
}

const optionsOf = (request: EntryRequest) => ({
  ...(request.body !== undefined ? { parsedBody: request.body } : {}),
  ...(request.auth ? { authInfo: toSdkAuthInfo(request.auth) } : {}),
});

/**
 * Whether the SDK serves a request in its 2025-era (legacy) way: the SDK's own classification
 * (`classifyInboundRequest`, what `isLegacyRequest` runs), from the headers and the parsed body.
 * A POST with no parsed body is legacy, as the SDK treats a body that is not JSON.
 */
export function isLegacyHttpRequest(method: string, headers: { get(name: string): string | null | undefined }, body: unknown): boolean {
  if (method === 'POST' && body === undefined) return true;
  const outcome = classifyInboundRequest({
    httpMethod: method,
    protocolVersionHeader: headers.get('mcp-protocol-version') ?? undefined,
    mcpMethodHeader: headers.get('mcp-method') ?? undefined,
    mcpNameHeader: headers.get('mcp-name') ?? undefined,
    ...(body !== undefined ? { body } : {}),
  });
  return outcome.kind === 'legacy';
}

/** The protocol revisions the SDK serves (a session stores the one it negotiated). */
export const supportedProtocolVersions = (): readonly string[] => SUPPORTED_PROTOCOL_VERSIONS;

/** A protocol version header a 2025-era session transport takes as it is. */
export const isLegacyVersion = (version: unknown): version is string => typeof version === 'string' && LEGACY_PROTOCOL_VERSIONS.includes(version);

/** The 2026-07-28 per-request entry. */
export interface ModernEntry {
  /** Serves one request: a fresh server instance for it, its answer as a web Response. */
  fetch(request: EntryRequest): Promise<Response>;
  close(): Promise<void>;
}

export interface ModernEntryOptions {
  factory: ServerFactoryOptions;
  maxPayloadBytes: number;
  onerror(err: Error): void;
}

/**
 * The SDK's per-request handler, strict about 2026-07-28 (2025-era traffic is routed elsewhere).
 * `server/discover` and `subscriptions/listen`, which the SDK's entry answers itself, run through
 * the core's pipeline first (sdk-served-methods.ts).
 */
export function createModernEntry(opts: ModernEntryOptions): ModernEntry {
  const { factory } = opts;
  const handler = createMcpHandler(async (rc) => (await buildServer(Object.assign({}, factory, { trackLive: false }), rc.era === 'modern' ? '2026' : '2025')).server, {
    legacy: 'reject',
    // subscriptions/listen streams read the bus that handle.notifyListChanged/notifyResourceUpdated publish on
    bus: (factory.live.bus ??= new InMemoryServerEventBus()),
    maxRequestBodySize: opts.maxPayloadBytes,
    onerror: opts.onerror,
  });
  const served = { core: factory.core, transport: 'http' as const, ...(factory.describeHttp ? { describeHttp: factory.describeHttp } : {}) };
  return {
    async fetch(request) {
      const fetch = () => handler.fetch(request.webReq, optionsOf(request));
      const sdkServed = sdkServedRequest(request.body);
      if (!sdkServed) return fetch();
      const { webReq, auth } = request;
      const run = () => runSdkServed(served, sdkServed, { headers: webReq.headers, signal: webReq.signal, ...(auth ? { auth } : {}) }, fetch);
      // A listen stream is observed here (listen-observe.ts); server/discover reaches a server instance, observed by its wire adapter.
      if (sdkServed.method === 'subscriptions/listen') return observedListen(factory.core.telemetry.wire, sdkServed, webReq, auth, run);
      const outcome = await run();
      return 'served' in outcome ? outcome.served : Response.json(outcome.error, { status: 200 });
    },
    close: () => handler.close(),
  };
}

/** A transport the HTTP side drives: one request (or stream) at a time. */
export interface HttpServingTransport {
  handleRequest(request: EntryRequest): Promise<Response>;
  close(): Promise<void>;
}

/** A 2025-era session's transport. */
export interface SessionTransport extends HttpServingTransport {
  /** Sends a message past the connection's filters (what another instance hands to the one holding the stream). */
  send(message: JSONRPCMessage): Promise<void>;
  /** Ends the client's GET stream, so it reconnects (to another instance). */
  closeStandaloneSSEStream(): void;
}

export interface SessionTransportOptions {
  id: string;
  responseMode: 'json' | 'sse';
  /** Where the session's events are kept for Last-Event-ID (the session's view of the event store). */
  eventStore: EventStore;
  /** The client's initialize is being answered (the session is added, and stored, before the answer). */
  onInitialized(): Promise<void>;
  /** The client ended the session (DELETE). */
  onDeleted(): Promise<void>;
  /** The transport closed, for any reason. */
  onClosed(): void;
}

/** The SDK's transport behind each session transport made here, for its server to connect to. */
const sdkTransports = new WeakMap<SessionTransport, WebStandardStreamableHTTPServerTransport>();

export function createSessionTransport(opts: SessionTransportOptions): SessionTransport {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => opts.id,
    enableJsonResponse: opts.responseMode === 'json',
    eventStore: opts.eventStore,
    onsessioninitialized: () => opts.onInitialized(),
    onsessionclosed: () => opts.onDeleted(),
  });
  transport.onclose = opts.onClosed;
  const session: SessionTransport = {
    handleRequest: (request) => transport.handleRequest(request.webReq, optionsOf(request)),
    close: () => transport.close(),
    send: (message) => transport.send(message),
    closeStandaloneSSEStream: () => transport.closeStandaloneSSEStream(),
  };
  sdkTransports.set(session, transport);
  return session;
}

/** Connects a session's server instance (server-factory.ts) to its transport. */
export function connectSession(server: CoreServer, transport: SessionTransport): Promise<void> {
  const sdk = sdkTransports.get(transport);
  if (!sdk) throw new Error('not a session transport of createSessionTransport');
  return server.connect(sdk);
}

/**
 * Serves one 2025-era POST statelessly: a fresh transport and server, answered as configured. The
 * answer is handed to `write`, and the server closes once it is written (an event stream included).
 */
export async function serveStateless(factory: ServerFactoryOptions, responseMode: 'json' | 'sse', request: EntryRequest, write: (response: Response) => Promise<void>): Promise<void> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: responseMode === 'json' });
  const built = await buildServer(Object.assign({}, factory, { trackLive: false, requestStreams: responseMode === 'sse' }), '2025');
  await built.server.connect(transport);
  try {
    await write(await transport.handleRequest(request.webReq, optionsOf(request)));
  } finally {
    await built.server.close().catch(() => undefined);
  }
}

