/**
 * The one decision of how an incoming message is served, for every transport
 * and era: a pure function of what is known before it runs (the transport,
 * the HTTP method and headers, the message's era and shape, the session, the
 * tool's declared needs, the configuration), returning a named route. The
 * transports gather the facts and carry the route out (transport/http/
 * mcp-endpoint.ts, transport/http/legacy-sse-routes.ts, transport/stdio.ts);
 * they decide nothing. `test/spec/route.test.ts` lists every route with the
 * facts that select it.
 *
 * A core route runs the core's runner of the method directly and writes the
 * answer itself (hand-written encodings, the SDK's codec for the rest:
 * sdk-codec.ts); an SDK route hands the message to the SDK (a session's
 * transport, the per-request entry, serveStdio), whose handlers run the same
 * runner. The two are proven to answer alike (test/fast-path). A refusal
 * route answers an HTTP request that no path may serve.
 */

/** Routes of a message. */
export const ROUTES = [
  /** 2026-07-28 over HTTP: a plain request of a core method, served by the core runner (modern-fast-call.ts). */
  'core.modern',
  /** 2026-07-28 over HTTP: anything else, served by the SDK's per-request entry (server/discover, subscriptions/listen, lists, tasks, …). */
  'sdk.modern',
  /** A 2025-era session: a plain request of a core method, served by the core runner on the session (session-fast-call.ts). */
  'core.session',
  /** A 2025-era session: a GET resuming, by Last-Event-ID, the stream of a call the core route serves. */
  'core.session-resume',
  /** A 2025-era session: everything else (its other requests, notifications, its GET stream, DELETE), served by its SDK transport. */
  'sdk.session',
  /** 2025 era: an `initialize` without a session, which opens one. */
  'sdk.session-open',
  /** 2025 era on a stateless endpoint (`mcp.stateless`): a fresh SDK transport and server for the POST. */
  'sdk.stateless',
  /** A GET or DELETE on a stateless endpoint: 405. */
  'refuse.method',
  /** A POST whose body no JSON parser took (its Content-Type is not JSON): 415. */
  'refuse.media',
  /** A 2025-era POST without a session that is not an `initialize`: 400. */
  'refuse.no-session',
  /** A 2025-era GET or DELETE without a session: 400. */
  'refuse.session-header',
  /** A message posted to a legacy HTTP+SSE stream: its SDK server instance. */
  'sdk.legacy-sse',
  /** stdio, before the SDK is loaded: a 2025-era handshake, ping or core list, answered by the cold front (cold-answers.ts). */
  'core.stdio-cold',
  /** stdio: everything else, and everything once the SDK serves the connection. */
  'sdk.stdio',
] as const;

export type Route = (typeof ROUTES)[number];

/** What is known of a call before it runs, when the body is a plain request of a core method (fast-call-shape.ts). */
export interface CallFacts {
  /** The era the reader accepted it for. */
  era: '2026' | '2025';
  /**
   * Whether the core route serves it: the method is served by this server, and the tool's
   * declaration asks for nothing only the SDK path does (task execution while tasks are offered).
   */
  core: boolean;
}

export interface HttpMessageFacts {
  transport: 'http';
  method: string;
  /** Whether a JSON body was parsed (POST). */
  json: boolean;
  /**
   * The SDK's classification of the request (http-entry.ts isLegacyHttpRequest): true for 2025-era
   * traffic. Asked only when a route depends on it: classifying costs as much as a small call.
   */
  legacy: () => boolean;
  /** The body is a JSON-RPC `initialize` request. */
  initialize: boolean;
  /** The request names a session (Mcp-Session-Id). */
  sessionHeader: boolean;
  /** A plain call the core route could serve (undefined: not such a call). */
  call: CallFacts | undefined;
  /**
   * The session named is held here with what the core route needs, and the request's headers are
   * ones the session transport takes as they are (a supported 2025 protocol version, an Accept the
   * transport accepts).
   */
  coreSession: boolean;
  /** A GET carrying Last-Event-ID of a stream this instance's core route is serving for the session named. */
  coreStream: boolean;
  /** `mcp.fastPath`: core routes are on. */
  coreRoutes: boolean;
  /** `mcp.stateless`. */
  stateless: boolean;
}

export interface SseMessageFacts {
  transport: 'sse';
}

export interface StdioMessageFacts {
  transport: 'stdio';
  /** The SDK serves the connection already. */
  sdkServes: boolean;
  /** The cold front reads the message as one it answers (a 2025-era handshake, ping or core list, cold-answers.ts). */
  cold: boolean;
}

export type MessageFacts = HttpMessageFacts | SseMessageFacts | StdioMessageFacts;

export function decideRoute(facts: MessageFacts): Route {
  switch (facts.transport) {
    case 'stdio':
      return !facts.sdkServes && facts.cold ? 'core.stdio-cold' : 'sdk.stdio';
    case 'sse':
      return 'sdk.legacy-sse';
    case 'http':
      return httpRoute(facts);
  }
}

function httpRoute(f: HttpMessageFacts): Route {
  const post = f.method === 'POST';
  if (f.coreRoutes) {
    if (post && f.call?.core && f.call.era === '2026' && !f.sessionHeader) return 'core.modern';
    if (!f.stateless && post && f.call?.core && f.call.era === '2025' && f.sessionHeader && f.coreSession) return 'core.session';
    if (!f.stateless && f.method === 'GET' && f.sessionHeader && f.coreStream) return 'core.session-resume';
  }
  if (f.stateless) {
    if (!post) return 'refuse.method';
    return f.legacy() ? 'sdk.stateless' : 'sdk.modern';
  }
  if (f.sessionHeader) return 'sdk.session';
  if (post && !f.legacy()) return 'sdk.modern';
  if (post && f.initialize) return 'sdk.session-open';
  if (post && !f.json) return 'refuse.media';
  if (post) return 'refuse.no-session';
  return 'refuse.session-header';
}

/** What the HTTP fast lane knows of a request before reading its body. */
export interface HttpHead {
  /** The lane is closed (authentication on, and its guard cannot run ahead of express). */
  closed: boolean;
  /** The path is the MCP endpoint (`/mcp`, no query). */
  endpoint: boolean;
  method: string;
  /** Origin (a browser: CORS is the express chain's), Content-Encoding, Transfer-Encoding present. */
  origin: boolean;
  encoded: boolean;
  /** Content-Length as sent (undefined: none). */
  contentLength: string | undefined;
  /** Content-Type is `application/json` (optionally with `charset=utf-8`). */
  plainJson: boolean;
  maxPayloadBytes: number;
}

/**
 * Which front reads an HTTP request: the fast lane (its body taken at once, JSON parsed, no express)
 * or the express chain (CORS, compressed or chunked bodies, other content types, other paths). Both
 * end in the same endpoint, which decides the route (decideRoute): this only says who reads the bytes.
 */
export function httpReader(head: HttpHead): 'lane' | 'express' {
  if (head.closed || !head.endpoint || head.origin || head.encoded) return 'express';
  if (head.method === 'GET' || head.method === 'DELETE') return head.contentLength === undefined || head.contentLength === '0' ? 'lane' : 'express';
  if (head.method !== 'POST' || !head.plainJson) return 'express';
  const length = Number(head.contentLength);
  return Number.isInteger(length) && length > 0 && length <= head.maxPayloadBytes ? 'lane' : 'express';
}
