/**
 * Builds the core's RequestContext from what the SDK hands a request handler,
 * the same way for every era and transport.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { AuthInfo, ProtocolEra, RequestContext, TransportKind } from '../core/request-context.js';
import { fromSdkAuthInfo } from './auth-info.js';
import type { WireRequestScope } from '../core/telemetry.js';

/** What the transport knows of an HTTP request (request id, trace, client address, auth). */
export type HttpRequestDescriber = (req: Request) => Partial<RequestContext>;

export interface ContextSource {
  era: ProtocolEra;
  transport: TransportKind;
  server: McpServer;
  describeHttp?: HttpRequestDescriber;
  /** The identity of requests that carry none of their own (stdio started with a token). */
  defaultAuth?: AuthInfo;
}

export function buildRequestContext(source: ContextSource, ctx: ServerContext, scope?: WireRequestScope): RequestContext {
  const httpReq = ctx.http?.req;
  const fromHttp = httpReq && source.describeHttp ? source.describeHttp(httpReq) : {};
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const capabilities =
    source.era === '2026'
      ? (envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined)
      : (source.server.server.getClientCapabilities() as Record<string, unknown> | undefined);
  const clientInfo =
    source.era === '2026'
      ? (envelope[CLIENT_INFO_META_KEY] as { name?: string; version?: string } | undefined)
      : source.server.server.getClientVersion();

  const rc: RequestContext = {
    requestId: fromHttp.requestId ?? randomUUID(),
    era: source.era,
    transport: source.transport,
    clientCapabilities: capabilities ?? {},
    ...fromHttp,
  };
  rc.era = source.era;
  rc.transport = source.transport;
  // The wire observation names the request (id, trace from headers or 2026 `_meta`) and binds its logger.
  if (scope) {
    rc.requestId = scope.requestId;
    if (scope.trace) rc.trace = scope.trace;
    if (scope.logger) rc.logger = scope.logger;
  }
  // Only the authentication middleware sets authInfo (the SDK never fills it from headers).
  const auth = fromSdkAuthInfo(ctx.http?.authInfo) ?? source.defaultAuth;
  if (auth) rc.auth = auth;
  else delete rc.auth;
  if (ctx.sessionId) rc.sessionId = ctx.sessionId;
  if (clientInfo) rc.clientInfo = { name: clientInfo.name, version: clientInfo.version };
  return rc;
}
