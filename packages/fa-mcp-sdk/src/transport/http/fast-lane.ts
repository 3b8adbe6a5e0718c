/**
 * The HTTP fast lane (`mcp.fastPath`): JSON POSTs and bodiless GETs and DELETEs
 * to /mcp are served without the express app. Plain 2026-07-28 `tools/call`,
 * `prompts/get`, `resources/read` and `completion/complete` requests go to the
 * protocol layer's fast path (protocol/modern-fast-call.ts), plain requests of
 * those methods on 2025-era sessions to the session fast path
 * (protocol/session-fast-call.ts, through mcp-routes.ts, with the resumption
 * of its event streams); every other single message, session stream and session end goes straight to
 * the MCP routes' handler (mcp-routes.ts), as the express chain would hand it
 * on. (GETs take the lane with the POSTs so that neither overtakes the other
 * through express: a client opening its session stream and calling a tool at
 * once gets the stream first, as before.) Anything else, and anything the lane is not sure of,
 * goes to the express app unchanged.
 *
 * The lane applies the same rules as the express chain, with the same code:
 * request front (security headers, request id, in-flight count, `Connection:
 * close` once shutdown stopped accepting), Host/Origin check, authentication (the MCP guard, run ahead), body
 * timeout, size and raw-message checks, JSON parsing. A request it hands on
 * keeps what the lane did: express's guard takes the authentication outcome
 * (a refusal is answered by express, counted once) and express's parser the
 * body already read (body-parser.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '../../protocol/sdk-server.js';
import type { AuthGuard } from '../../auth/http-guard.js';
import type { CoreLogger } from '../../core/core.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import type { AuthInfo } from '../../core/request-context.js';
import { FAST_METHODS, isPlainObject } from '../../protocol/fast-call-params.js';
import type { FastCallExchange, ModernFastCall } from '../../protocol/modern-fast-call.js';
import { MODERN_REVISION as FAST_PATH_REVISION } from '../../protocol/sdk-codec.js';
import { handOverBody, readEarlyBody, takeArrivedBody } from './body-parser.js';
import { FrontResponse } from './front-response.js';
import type { HostOriginCheck } from './host-origin-guard.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { contentLengthOf } from './body-length.js';
import { nodeHeaderReader } from './node-headers.js';
import type { RequestFront } from './request-front.js';
import { armBodyTimeout } from './slow-client-timeouts.js';
import { clientAddress, type TrustProxyRule } from './trust-proxy.js';
import { KEEP_ALIVE, KEEP_ALIVE_MS, SSE_HEADERS, sseEvent } from './sse-frames.js';
import { writeJsonRpcBody } from './web-response.js';

export interface FastLaneOptions {
  /** The express app: where every request the lane does not serve goes. */
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
  mapErrorStatus: boolean;
  fastCall: ModernFastCall;
  /** The MCP routes' handler (mcp-routes.ts): body on `req.body`, caller on `req.auth`. */
  serveMcp(req: IncomingMessage, res: ServerResponse): void;
  /** The session fast path's POSTs and stream resumptions (mcp-routes.ts); false: `serveMcp` serves the request. */
  serveSessionCall(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  resumeSessionCall(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
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
  /** What the lane served: 2026-07-28 fast calls, and other requests it took to the MCP routes past express. */
  stats(): FastLaneStats;
}

export interface FastLaneStats {
  /** 2026-07-28 requests (tools/call, prompts/get, resources/read, completion/complete) served by the fast path. */
  fastCalls: number;
  /** 2025-era session requests of those methods (and stream resumptions) served by the session fast path. */
  sessionCalls: number;
  /** Requests taken to the MCP routes past express. */
  direct: number;
}

/** The lane writes the front's headers with each response (front-response.ts). */
const DEFER = { defer: true } as const;

export function createFastLane(opts: FastLaneOptions): FastLane {
  let fastCalls = 0;
  let sessionCalls = 0;
  let direct = 0;
  /** A JSON POST, or a bodiless GET or DELETE (session streams and session ends), to /mcp. */
  const isCandidate = (req: IncomingMessage): boolean => {
    const h = req.headers;
    if (opts.closed || req.url !== '/mcp') return false;
    // CORS and browser origins, compressed or chunked bodies: the express chain's.
    if (h.origin !== undefined || h['content-encoding'] !== undefined || h['transfer-encoding'] !== undefined) return false;
    if (req.method === 'GET' || req.method === 'DELETE') return h['content-length'] === undefined || h['content-length'] === '0';
    if (req.method !== 'POST') return false;
    const length = Number(h['content-length']);
    return Number.isInteger(length) && length > 0 && length <= opts.maxPayloadBytes && isPlainJsonType(h['content-type']);
  };

  /**
   * Hands an admitted request to express: the front's headers go into the response's store first,
   * as express swaps the response's prototype (front-response.ts).
   */
  const toApp = (req: IncomingMessage, res: ServerResponse) => {
    if (res instanceof FrontResponse) res.storeFront();
    opts.app(req, res);
  };

  /** What express's mount leaves the MCP routes (the path below /mcp), and the caller as the guard leaves it; then the routes. */
  const toRoutes = (req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined) => {
    req.url = '/';
    if (auth) (req as { auth?: AuthInfo }).auth = auth;
    direct++;
    opts.serveMcp(req, res);
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let auth: AuthInfo | undefined;
    if (opts.guard) {
      try {
        auth = await opts.guard.ahead(req, '/mcp');
      } catch {
        return toApp(req, res); // express's guard answers the refusal
      }
    }
    if (req.method !== 'POST') {
      if (req.method === 'GET' && req.headers['last-event-id'] !== undefined) {
        if (auth) (req as { auth?: AuthInfo }).auth = auth;
        if (await opts.resumeSessionCall(req, res)) {
          sessionCalls++;
          return;
        }
      }
      return toRoutes(req, res, auth);
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
    const value = body.value;
    // What express's mount leaves the MCP routes (the path below /mcp), and the caller as the guard leaves it.
    req.url = '/';
    if (auth) (req as { auth?: AuthInfo }).auth = auth;
    const h = req.headers;
    const fastMethod = h['mcp-method'];
    if (typeof fastMethod === 'string' && FAST_METHODS.has(fastMethod) && h['mcp-protocol-version'] === FAST_PATH_REVISION && h['mcp-session-id'] === undefined) {
      const headers = nodeHeaderReader(h, contentLengthOf(req, value));
      const call = opts.fastCall.read(value, headers);
      const takes = call && opts.fastCall.takes(call);
      if (call && (takes === true || (takes !== false && (await takes)))) {
        fastCalls++;
        return opts.fastCall.serve(call, { headers, ...(auth ? { auth } : {}) }, exchangeFor(res));
      }
    }
    (req as { body?: unknown }).body = value;
    if (h['mcp-session-id'] !== undefined) {
      const taken = opts.serveSessionCall(req, res);
      if (taken === true || (taken !== false && (await taken))) {
        sessionCalls++;
        return;
      }
    }
    toRoutes(req, res, auth);
  }

  function exchangeFor(res: ServerResponse): FastCallExchange {
    let gone: Array<() => void> | undefined = [];
    let streaming = false;
    let finished = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const stop = () => {
      finished = true;
      if (keepAlive) clearInterval(keepAlive);
    };
    res.once('close', () => {
      if (keepAlive) clearInterval(keepAlive);
      if (res.writableFinished) return;
      const listeners = gone ?? [];
      gone = undefined;
      for (const fn of listeners) fn();
    });
    const startStream = () => {
      streaming = true;
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      keepAlive = setInterval(() => res.write(KEEP_ALIVE), KEEP_ALIVE_MS);
      keepAlive.unref();
    };
    return {
      onGone(fn) {
        if (!gone) {
          fn();
          return () => undefined;
        }
        gone.push(fn);
        return () => {
          gone = gone?.filter((f) => f !== fn);
        };
      },
      push(message: JSONRPCMessage) {
        if (finished || res.destroyed) return;
        if (!streaming) startStream();
        res.write(sseEvent(JSON.stringify(message)));
      },
      answer(message, status) {
        if (finished) return;
        stop();
        const text = JSON.stringify(message);
        if (streaming) {
          res.end(sseEvent(text));
          return;
        }
        const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
        if (status !== 200) {
          res.writeHead(status, headers);
          res.end(text);
          return;
        }
        writeJsonRpcBody(res, text, headers, { mapErrorStatus: opts.mapErrorStatus });
      },
    };
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (!isCandidate(req)) return opts.app(req, res);
    opts.front.admit(req, res, clientAddress(req, opts.trustProxy), DEFER);
    if (opts.hostCheck(req.headers) !== undefined) return toApp(req, res);
    serve(req, res).catch((err: unknown) => {
      opts.logger.error({ err }, 'MCP HTTP request failed');
      sendJsonRpcError(res, 500, MCP_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
    });
  };
  return { listener, stats: () => ({ fastCalls, sessionCalls, direct }) };
}
