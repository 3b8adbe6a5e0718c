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

export function createRequestFront(opts: { securityHeaders: SecurityHeadersOptions; closing?: () => boolean }): RequestFront {
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

  const admit: RequestFront['admit'] = (req, res, how) => {
    const id = requestIdOf(req, res);
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
