/**
 * One HTTP request to the MCP endpoint, as either front hands it over (the
 * fast lane, fast-lane.ts, or the express chain, http-server.ts): node's
 * request and response and the facts the front established — the parsed
 * body, the verified caller, the client address, the request id. The endpoint
 * (mcp-endpoint.ts) and the routes read these fields; nothing is written into
 * node's or express's objects to carry them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../core/request-context.js';
import { rememberHttpFacts, type HttpRequestFacts } from '../../protocol/request-facts.js';
import { contentLengthOf } from './body-length.js';
import { nodeHeaderReader, type NodeHeaderView } from './node-headers.js';
import { parsedBodyRequest, streamedBodyRequest } from './web-request.js';
import { frontFactsOf } from './request-front.js';

export interface HttpExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The parsed JSON body of a POST; undefined when no JSON parser took the body (or there is none). */
  body: unknown;
  /** The caller the HTTP guard verified; undefined without authentication (or an anonymous caller). */
  auth: AuthInfo | undefined;
  /** The client address after `webServer.trustProxy`. */
  remoteAddress: string;
  /** X-Request-Id as accepted, or minted (request-id.ts). */
  requestId: string;
  /** Which front read the request (protocol/route.ts httpReader). */
  front: 'lane' | 'express';
}

/**
 * The facts the front made for the exchange's request (request-front.ts), with the client address the
 * exchange established; the observation of its JSON-RPC request marks them observed.
 */
function factsOf(exchange: HttpExchange): HttpRequestFacts {
  const facts = frontFactsOf(exchange.req);
  if (!facts) return { requestId: exchange.requestId, remoteAddress: exchange.remoteAddress };
  facts.remoteAddress = exchange.remoteAddress;
  return facts;
}

/**
 * The web Request the SDK's handlers get for the exchange (web-request.ts), its facts kept for the
 * request context and the wire observation (protocol/request-facts.ts). `signal` aborts when the
 * client goes away. A body no parser took is read here, at most `maxBytes`.
 */
export async function webRequestOf(exchange: HttpExchange, maxBytes: number, signal: AbortSignal): Promise<Request> {
  const { req, body } = exchange;
  const webReq = body === undefined ? await streamedBodyRequest(req, maxBytes, signal) : parsedBodyRequest(req, body, signal);
  rememberHttpFacts(webReq.headers, factsOf(exchange));
  return webReq;
}

/** The request as a core route reads it: its headers (node-headers.ts) and the exchange's facts, given along (no registry). */
export interface CoreRequest {
  headers: NodeHeaderView;
  facts: HttpRequestFacts;
  auth?: AuthInfo;
}

export function coreRequestOf(exchange: HttpExchange): CoreRequest {
  const headers = nodeHeaderReader(exchange.req.headers, contentLengthOf(exchange.req, exchange.body));
  const request: CoreRequest = { headers, facts: factsOf(exchange) };
  if (exchange.auth) request.auth = exchange.auth;
  return request;
}

/** An AbortSignal that aborts when the client goes away before the answer is written. */
export function goneSignal(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
