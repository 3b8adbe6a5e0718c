/**
 * What every HTTP request gets first, on the express chain and on the HTTP
 * fast lane alike: the security headers, its request id (X-Request-Id, kept
 * on the request: request-id.ts), and the count of POSTs in flight (graceful
 * shutdown waits for them). Once the server stopped accepting (`closing`), every request admitted is
 * answered with `Connection: close`, so its kept-alive connection ends after it.
 * Admitting a request twice (the fast lane handing it on to express) changes nothing.
 *
 * The fast lane's admission leaves the headers with the response, to be written
 * with it in one go (front-response.ts): `admit(…, { defer: true })`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { FrontResponse, frontHeaders } from './front-response.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import type { HttpRequestFacts } from '../../protocol/request-facts.js';
import { securityHeaderList, securityHeaderWriter, type SecurityHeadersOptions } from './security-headers.js';

export interface RequestFront {
  /**
   * Admits a request. `defer`:
   * a FrontResponse keeps the headers until it is written (a response handed to express must then
   * be stored first, `FrontResponse.storeFront`).
   */
  admit(req: IncomingMessage, res: ServerResponse, how?: { defer: boolean }): void;
  /** The express face of `admit`. */
  middleware: RequestHandler;
  /** POST requests being served right now. */
  inFlight(): number;
}

/** An HTTP answer of 400 and above that no JSON-RPC request's observation covered: a refusal before the pipeline. */
export interface UnobservedAnswer {
  req: IncomingMessage;
  status: number;
  requestId: string;
  remoteAddress: string;
  durationMs: number;
}

export interface RequestFrontOptions {
  securityHeaders: SecurityHeadersOptions;
  closing?: () => boolean;
  /** Told of every answer of 400 and above that no request's observation covered (the audit trail's refusals). */
  unobserved?: (answer: UnobservedAnswer) => void;
  /** The client address after `webServer.trustProxy`, for `unobserved`. */
  addressOf?: (req: IncomingMessage) => string;
}

/** What the front established of a request (protocol/request-facts.ts), kept with it from its admission on. */
const FACTS = Symbol('fa-mcp.requestFacts');
type Fronted = { [FACTS]?: HttpRequestFacts };

/** The facts the front made for `req` when it admitted it; the exchange fills in the client address. */
export function frontFactsOf(req: IncomingMessage): HttpRequestFacts | undefined {
  return (req as Fronted)[FACTS];
}

export function createRequestFront(opts: RequestFrontOptions): RequestFront {
  const writeSecurityHeaders = securityHeaderWriter(opts.securityHeaders);
  const deferred = frontHeaders(securityHeaderList(opts.securityHeaders), REQUEST_ID_HEADER);
  // A request counted once is marked on itself (a key of this front's own), not in a WeakSet entry per
  // request; its response carries the mark until it closes, and one shared listener takes it off.
  const counted = Symbol('fa-mcp.inFlight');
  type Counted = { [counted]?: boolean };
  const settle = function (this: ServerResponse): void {
    if (!(this as Counted)[counted]) return;
    (this as Counted)[counted] = false;
    inFlight--;
  };
  let inFlight = 0;

  /** Tells `unobserved` of an answer of 400 and above that no request's observation covered. */
  const watch = (req: IncomingMessage, res: ServerResponse, facts: HttpRequestFacts): void => {
    const unobserved = opts.unobserved as NonNullable<RequestFrontOptions['unobserved']>;
    const started = performance.now();
    res.once('finish', () => {
      if (facts.observed || res.statusCode < 400) return;
      const remoteAddress = facts.remoteAddress || (opts.addressOf?.(req) ?? req.socket.remoteAddress ?? '');
      unobserved({ req, status: res.statusCode, requestId: facts.requestId, remoteAddress, durationMs: Math.round((performance.now() - started) * 1000) / 1000 });
    });
  };

  const admit: RequestFront['admit'] = (req, res, how) => {
    const known = (req as Fronted)[FACTS];
    const id = known?.requestId ?? requestIdOf(req, res);
    if (!known) {
      const facts: HttpRequestFacts = { requestId: id, remoteAddress: '' };
      (req as Fronted)[FACTS] = facts;
      if (opts.unobserved) watch(req, res, facts);
    }
    const close = opts.closing?.() === true;
    if (!(how?.defer && res instanceof FrontResponse && res.deferFront(deferred, id, close))) {
      writeSecurityHeaders(res);
      if (close) res.setHeader('Connection', 'close');
      res.setHeader(REQUEST_ID_HEADER, id);
    }
    if (req.method === 'POST' && !(req as Counted)[counted]) {
      (req as Counted)[counted] = true;
      (res as Counted)[counted] = true;
      inFlight++;
      res.on('close', settle);
    }
  };

  return {
    admit,
    middleware: (req, res, next) => {
      admit(req, res);
      next();
    },
    inFlight: () => inFlight,
  };
}
