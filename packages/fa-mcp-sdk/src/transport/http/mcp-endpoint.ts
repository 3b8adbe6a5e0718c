/**
 * The MCP endpoint (`/mcp`): every request either HTTP front hands over (the
 * fast lane, or the express chain) comes here as an HttpExchange. The endpoint
 * gathers the facts of the request, asks the one decision (protocol/route.ts
 * decideRoute) which route serves it, and carries that route out
 * (session-routes.ts, modern-routes.ts, the refusals below). It decides
 * nothing itself.
 */
import type { CoreLogger } from '../../core/core.js';
import { MCP_ERROR_CODES, PayloadTooLargeError } from '../../core/errors.js';
import { FAST_METHODS, isPlainObject } from '../../protocol/fast-call-params.js';
import type { FastCall } from '../../protocol/fast-call-shape.js';
import { isLegacyHttpRequest } from '../../protocol/http-entry.js';
import type { ModernFastCall } from '../../protocol/modern-fast-call.js';
import { decideRoute, type CallFacts, type HttpMessageFacts, type Route } from '../../protocol/route.js';
import { MODERN_REVISION } from '../../protocol/sdk-codec.js';
import type { SessionFastCall } from '../../protocol/session-fast-call.js';
import { coreRequestOf, goneSignal, webRequestOf, type CoreRequest, type HttpExchange } from './http-exchange.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import type { ModernRoutes } from './modern-routes.js';
import type { Session } from './session-manager.js';
import type { SessionRoutes } from './session-routes.js';
import type { ResumableStream } from './session-exchange.js';

export interface McpEndpointOptions {
  sessions: SessionRoutes;
  modern: ModernRoutes;
  /** The core routes' readers and runners (`mcp.fastPath`); absent: no core route is taken. */
  core?: { modern: ModernFastCall; session?: SessionFastCall };
  stateless: boolean;
  maxPayloadBytes: number;
  logger: CoreLogger;
}

/** What the endpoint served, by route (`handle.http.routes()`). */
export type RouteCounts = Partial<Record<Route, number>>;

export interface McpEndpoint {
  /** Serves one request; answers every failure itself. */
  serve(exchange: HttpExchange): void;
  /** Requests served, by route. */
  counts(): Readonly<RouteCounts>;
  /** Requests the fast lane read that took a route other than a core one. */
  laneToOthers(): number;
}

/** What the facts found of the request, that its route's carrying out uses. */
interface Found {
  call?: FastCall;
  /** What the core route reads of the request (its headers view and facts), made once. */
  request?: CoreRequest;
  session?: Session;
  stream?: { session: Session; stream: ResumableStream };
}

const isInitialize = (body: unknown): boolean => isPlainObject(body) && body.method === 'initialize';

export function createMcpEndpoint(opts: McpEndpointOptions): McpEndpoint {
  const { sessions, modern, core } = opts;
  const counts: RouteCounts = {};
  let laneToOthers = 0;

  /** The call a plain body carries, when a core route could serve it, with what its declaration says. */
  async function callOf(exchange: HttpExchange, sessionHeader: boolean): Promise<{ call: FastCall; facts: CallFacts; request?: CoreRequest } | undefined> {
    const { req, body } = exchange;
    if (!core || req.method !== 'POST' || !isPlainObject(body)) return undefined;
    if (!sessionHeader) {
      const h = req.headers;
      const method = h['mcp-method'];
      if (typeof method !== 'string' || !FAST_METHODS.has(method) || h['mcp-protocol-version'] !== MODERN_REVISION) return undefined;
      const request = coreRequestOf(exchange);
      const call = core.modern.read(body, request.headers);
      if (!call) return undefined;
      const takes = core.modern.takes(call);
      return { call, request, facts: { era: '2026', core: takes === true || (takes !== false && (await takes)) } };
    }
    if (opts.stateless || !core.session) return undefined;
    const call = core.session.read(body);
    if (!call) return undefined;
    const takes = core.session.takes(call);
    return { call, facts: { era: '2025', core: takes === true || (takes !== false && (await takes)) } };
  }

  async function factsOf(exchange: HttpExchange): Promise<{ facts: HttpMessageFacts; found: Found }> {
    const { req, body } = exchange;
    const method = req.method ?? 'GET';
    const sessionHeader = req.headers['mcp-session-id'] !== undefined;
    const read = await callOf(exchange, sessionHeader);
    const found: Found = {};
    if (read) found.call = read.call;
    if (read?.request) found.request = read.request;
    const session = read?.facts.era === '2025' && read.facts.core ? sessions.coreSessionOf(exchange) : undefined;
    if (session) found.session = session;
    const stream = core?.session && !opts.stateless && method === 'GET' && sessionHeader ? await sessions.coreStreamOf(exchange) : undefined;
    if (stream) found.stream = stream;
    let legacy: boolean | undefined;
    const facts: HttpMessageFacts = {
      transport: 'http',
      method,
      json: body !== undefined,
      legacy: () => (legacy ??= isLegacyHttpRequest(method, { get: (name) => single(req.headers[name]) }, body)),
      initialize: isInitialize(body),
      sessionHeader,
      call: read?.facts,
      coreSession: session !== undefined,
      coreStream: stream !== undefined,
      coreRoutes: core !== undefined,
      stateless: opts.stateless,
    };
    return { facts, found };
  }

  async function carryOut(route: Route, exchange: HttpExchange, found: Found): Promise<void> {
    const { res } = exchange;
    switch (route) {
      case 'core.modern':
        return modern.serveCall(found.request as CoreRequest, exchange.res, found.call as FastCall);
      case 'sdk.modern':
        return modern.serve(exchange);
      case 'core.session':
        return sessions.serveCall(exchange, found.session as Session, found.call as FastCall);
      case 'core.session-resume':
        return sessions.resume(exchange, found.stream as NonNullable<Found['stream']>);
      case 'sdk.session':
        return sessions.serve(exchange);
      case 'sdk.session-open':
        return sessions.open(exchange);
      case 'sdk.stateless':
        return modern.serveStateless(exchange);
      case 'refuse.method':
        res.setHeader('Allow', 'POST'); // a 405 must say what is allowed (RFC 9110, 15.5.6)
        return sendJsonRpcError(res, 405, MCP_ERROR_CODES.INVALID_REQUEST, 'Method not allowed: this endpoint is stateless');
      case 'refuse.media':
        // No JSON parser took the body (its Content-Type is not JSON): answered as the SDK answers it on a
        // session and on 2026-07-28 (415, -32000), not as a missing session; a body past the cap first
        // gets its 413, as on those routes (the read throws PayloadTooLargeError).
        await webRequestOf(exchange, opts.maxPayloadBytes, goneSignal(res));
        return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      case 'refuse.no-session':
        return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Bad Request: no valid session id; send initialize first');
      case 'refuse.session-header':
        return sendJsonRpcError(res, 400, MCP_ERROR_CODES.INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header is required');
      default:
        throw new Error(`route ${route} is not served over HTTP`);
    }
  }

  const serve = async (exchange: HttpExchange): Promise<void> => {
    const { facts, found } = await factsOf(exchange);
    const route = decideRoute(facts);
    counts[route] = (counts[route] ?? 0) + 1;
    if (exchange.front === 'lane' && !route.startsWith('core.')) laneToOthers++;
    await carryOut(route, exchange, found);
  };

  return {
    serve(exchange) {
      serve(exchange).catch((err: unknown) => {
        const { res } = exchange;
        // A body past mcp.limits.maxPayloadBytes that no JSON parser read (another Content-Type, chunked):
        // the client's error, answered as the parser's refusal is, and not logged as the server's.
        if (err instanceof PayloadTooLargeError) {
          if (res.headersSent) return;
          res.setHeader('Connection', 'close');
          return sendJsonRpcError(res, 413, MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, `Request body exceeds ${opts.maxPayloadBytes} bytes`, { maxPayloadBytes: opts.maxPayloadBytes });
        }
        opts.logger.error({ err }, 'MCP HTTP request failed');
        if (!res.headersSent) sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
      });
    },
    counts: () => counts,
    laneToOthers: () => laneToOthers,
  };
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
