/**
 * Builds the core's RequestContext from what a request brings, the same way for
 * every era, transport and serving path: the SDK's handler context (server
 * instances) or what the 2026-07-28 fast path read itself (modern-fast-call.ts).
 */
import { randomUUID } from 'node:crypto';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY } from './wire-constants.js';
import type { AuthInfo, ProtocolEra, RequestContext, TransportKind } from '../core/request-context.js';
import type { IMcpSession } from '../core/session-types.js';
import { fromSdkAuthInfo } from './auth-info.js';
import type { WireRequestScope } from '../core/telemetry.js';
import type { HttpRequestFacts } from './request-facts.js';

/** The headers of an HTTP request, read the web-standard way (a Request's Headers, or an adapter over node's). */
export interface HeaderReader {
  get(name: string): string | null;
  forEach(fn: (value: string, key: string) => void): void;
}

/**
 * What the transport knows of an HTTP request (request id, trace, headers, client address), written into
 * the context being built: no object of its own per request, nothing to copy over.
 */
export type HttpRequestDescriber = (req: { headers: HeaderReader; facts?: HttpRequestFacts }, into: RequestContext) => void;

export interface ContextSource {
  era: ProtocolEra;
  transport: TransportKind;
  /** The connection's server instance: where 2025-era client capabilities and info come from. */
  server?: McpServer;
  /** Where they come from before the connection has a server instance (stdio's cold front). */
  client?: HandshakeClient;
  describeHttp?: HttpRequestDescriber;
  /** The identity of requests that carry none of their own (stdio started with a token). */
  defaultAuth?: AuthInfo;
  /** The 2025-era connection's session handle (live-session.ts): `context.session`. */
  session?: IMcpSession | undefined;
}

/** The 2025-era client as its `initialize` described it (the SDK server's own getters fit). */
export interface HandshakeClient {
  getClientCapabilities(): unknown;
  getClientVersion(): { name: string; version: string } | undefined;
}

/** What a core route gives the runner of a call: the request's headers, what the HTTP front established of it, the verified caller. */
export interface CoreCallRequest {
  headers: HeaderReader;
  facts?: HttpRequestFacts;
  auth?: AuthInfo;
}

/** What one request brings, whichever serving path read it. */
export interface RequestFacts {
  /** The HTTP request, when it came over HTTP (with what the front established of it, when not kept beside its headers). */
  http?: { headers: HeaderReader; facts?: HttpRequestFacts };
  /** 2026-07-28: the request's `_meta` envelope (client capabilities and info). */
  envelope?: Record<string, unknown>;
  /** The caller verified by the authentication middleware (never read from headers). */
  auth?: AuthInfo;
  sessionId?: string;
  /** The wire observation of the request (request id, trace, bound logger). */
  scope?: WireRequestScope;
}

export function buildRequestContext(source: ContextSource, ctx: ServerContext, scope?: WireRequestScope): RequestContext {
  const facts: RequestFacts = {};
  if (ctx.http?.req) facts.http = ctx.http.req;
  if (ctx.mcpReq.envelope) facts.envelope = ctx.mcpReq.envelope as Record<string, unknown>;
  // Only the authentication middleware sets authInfo (the SDK never fills it from headers).
  const auth = fromSdkAuthInfo(ctx.http?.authInfo);
  if (auth) facts.auth = auth;
  if (ctx.sessionId) facts.sessionId = ctx.sessionId;
  if (scope) facts.scope = scope;
  return contextFromFacts(source, facts);
}

export function contextFromFacts(source: ContextSource, facts: RequestFacts): RequestContext {
  const envelope = facts.envelope ?? {};
  const low: HandshakeClient | undefined = source.client ?? source.server?.server;
  const capabilities =
    source.era === '2026'
      ? (envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined)
      : (low?.getClientCapabilities() as Record<string, unknown> | undefined);
  const clientInfo =
    source.era === '2026' ? (envelope[CLIENT_INFO_META_KEY] as { name?: string; version?: string } | undefined) : low?.getClientVersion();

  // Field by field (SPREAD_FIRST in client-channel.ts); the id is settled below.
  const rc: RequestContext = { requestId: '', era: source.era, transport: source.transport, clientCapabilities: capabilities ?? {} };
  if (facts.http && source.describeHttp) source.describeHttp(facts.http, rc);
  // The wire observation names the request (id, trace from headers or 2026 `_meta`) and binds its logger.
  const { scope } = facts;
  if (scope) {
    rc.requestId = scope.requestId;
    if (scope.trace) rc.trace = scope.trace;
    if (scope.logger) rc.logger = scope.logger;
  } else if (!rc.requestId) rc.requestId = randomUUID();
  const auth = facts.auth ?? source.defaultAuth;
  if (auth) rc.auth = auth;
  if (facts.sessionId) rc.sessionId = facts.sessionId;
  if (scope?.audit) rc.audit = scope.audit;
  if (source.session) rc.session = source.session;
  if (clientInfo) rc.clientInfo = { name: clientInfo.name, version: clientInfo.version };
  return rc;
}
