/**
 * The HTTP fast lane (`mcp.fastPath`): a front that reads requests to /mcp
 * without the express app — JSON POSTs whose body arrived with them, and
 * bodiless GETs and DELETEs (session streams and session ends; they take the
 * lane with the POSTs so that neither overtakes the other through express: a
 * client opening its session stream and calling a tool at once gets the
 * stream first). Which front reads a request is protocol/route.ts
 * `httpReader`; how the request is then served is decided by the endpoint
 * (mcp-endpoint.ts), whichever front read it.
 *
 * The lane applies the same rules as the express chain, with the same code:
 * request front (security headers, request id, in-flight count, `Connection:
 * close` once shutdown stopped accepting), Host/Origin check, authentication
 * (the MCP guard, run ahead), body timeout, size and raw-message checks, JSON
 * parsing. A request it hands to express keeps what the lane did: express's
 * guard takes the authentication outcome (a refusal is answered by express,
 * counted once) and express's parser the body already read (body-parser.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGuard } from '../../auth/http-guard.js';
import type { CoreLogger } from '../../core/core.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import type { AuthInfo } from '../../core/request-context.js';
import { isPlainObject } from '../../protocol/fast-call-params.js';
import { httpReader } from '../../protocol/route.js';
import { handOverBody, readEarlyBody, takeArrivedBody } from './body-parser.js';
import { FrontResponse } from './front-response.js';
import type { HostOriginCheck } from './host-origin-guard.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import type { McpEndpoint } from './mcp-endpoint.js';
import type { RequestFront } from './request-front.js';
import { getRequestId } from './request-id.js';
import { armBodyTimeout } from './slow-client-timeouts.js';
import { clientAddress, type TrustProxyRule } from './trust-proxy.js';

export interface FastLaneOptions {
  /** The express app: where every request the lane does not read goes. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  front: RequestFront;
  hostCheck: HostOriginCheck;
  /** `webServer.trustProxy`, compiled once and shared with express (trust-proxy.ts). */
  trustProxy: TrustProxyRule;
  maxPayloadBytes: number;
  maxJsonDepth: number;
  bodyTimeoutMs: number;
  /** The MCP guard, when authentication is on and it can run ahead of express. */
  guard?: AuthGuard;
  /** Authentication is on but its guard cannot run ahead: the lane stays closed. */
  closed: boolean;
  endpoint: McpEndpoint;
  logger: CoreLogger;
}

/** `application/json`, optionally with `charset=utf-8`: what the SDK and express's parser both take as is. */
function isPlainJsonType(value: string | undefined): boolean {
  if (value === 'application/json') return true; // what clients send, without a split per request
  if (!value) return false;
  const [type, ...params] = value.split(';');
  if (type?.trim().toLowerCase() !== 'application/json') return false;
  return params.every((p) => /^\s*charset\s*=\s*"?utf-8"?\s*$/i.test(p));
}

export interface FastLane {
  /** The server's request listener: the lane, then express. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Requests the lane read (and handed to the endpoint). */
  read(): number;
}

/** The lane writes the front's headers with each response (front-response.ts). */
const DEFER = { defer: true } as const;

export function createFastLane(opts: FastLaneOptions): FastLane {
  let read = 0;

  /**
   * Hands an admitted request to express: the front's headers go into the response's store first,
   * as express swaps the response's prototype (front-response.ts).
   */
  const toApp = (req: IncomingMessage, res: ServerResponse) => {
    if (res instanceof FrontResponse) res.storeFront();
    opts.app(req, res);
  };

  async function serve(req: IncomingMessage, res: ServerResponse, remoteAddress: string): Promise<void> {
    let auth: AuthInfo | undefined;
    if (opts.guard) {
      try {
        auth = await opts.guard.ahead(req, '/mcp');
      } catch {
        return toApp(req, res); // express's guard answers the refusal
      }
    }
    const requestId = getRequestId(req);
    if (req.method !== 'POST') {
      read++;
      return opts.endpoint.serve({ req, res, body: undefined, auth, remoteAddress, requestId, front: 'lane' });
    }
    // By the first turn of the microtask queue (the guard's, or this one) node has buffered what the
    // packet carried: usually the whole body, taken at once. Otherwise it is awaited under the deadline.
    if (!opts.guard) await Promise.resolve();
    let body = takeArrivedBody(req, opts.maxJsonDepth);
    if (!body) {
      armBodyTimeout(req, res, opts.bodyTimeoutMs);
      body = await readEarlyBody(req, opts.maxJsonDepth);
      if (!body || res.headersSent) return; // the client went away, or the body timed out (answered)
    }
    // Batches and bodies the parser refused: express's (rejectEmptyBatch, jsonBodyErrors).
    if (!('value' in body) || !isPlainObject(body.value)) {
      handOverBody(req, body);
      return toApp(req, res);
    }
    read++;
    opts.endpoint.serve({ req, res, body: body.value, auth, remoteAddress, requestId, front: 'lane' });
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const h = req.headers;
    const reader = httpReader({
      closed: opts.closed,
      endpoint: req.url === '/mcp',
      method: req.method ?? 'GET',
      origin: h.origin !== undefined,
      encoded: h['content-encoding'] !== undefined || h['transfer-encoding'] !== undefined,
      contentLength: h['content-length'],
      plainJson: isPlainJsonType(h['content-type']),
      maxPayloadBytes: opts.maxPayloadBytes,
    });
    if (reader === 'express') return opts.app(req, res);
    opts.front.admit(req, res, DEFER);
    const remoteAddress = clientAddress(req, opts.trustProxy) ?? req.socket.remoteAddress ?? '';
    if (opts.hostCheck(req.headers) !== undefined) return toApp(req, res);
    serve(req, res, remoteAddress).catch((err: unknown) => {
      opts.logger.error({ err }, 'MCP HTTP request failed');
      sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
    });
  };
  return { listener, read: () => read };
}
