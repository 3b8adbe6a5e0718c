/**
 * What every HTTP request gets first, on the express chain and on the HTTP
 * fast lane alike: the security headers, its request id (X-Request-Id), the
 * id and the client address handed to the protocol layer through the request's
 * own headers, and the count of POSTs in flight (graceful shutdown waits for
 * them). Admitting a request twice (the fast lane handing it on to express)
 * changes nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { assignRequestId } from './request-id.js';
import { securityHeaderWriter, type SecurityHeadersOptions } from './security-headers.js';

export interface RequestFront {
  /** Admits a request; `remoteAddress` is the client address after the trust-proxy rules. */
  admit(req: IncomingMessage, res: ServerResponse, remoteAddress: string | undefined): void;
  /** The express face of `admit`. */
  middleware: RequestHandler;
  /** POST requests being served right now. */
  inFlight(): number;
}

export function createRequestFront(opts: { securityHeaders: SecurityHeadersOptions }): RequestFront {
  const writeSecurityHeaders = securityHeaderWriter(opts.securityHeaders);
  const counted = new WeakSet<IncomingMessage>();
  let inFlight = 0;

  const admit: RequestFront['admit'] = (req, res, remoteAddress) => {
    writeSecurityHeaders(res);
    const id = assignRequestId(req, res);
    // Hand the accepted id to the protocol layer through the request itself.
    req.headers['x-request-id'] = id;
    req.headers['x-fa-mcp-remote-address'] = remoteAddress ?? req.socket.remoteAddress ?? '';
    if (req.method === 'POST' && !counted.has(req)) {
      counted.add(req);
      inFlight++;
      res.once('close', () => inFlight--);
    }
  };

  return {
    admit,
    middleware: (req, res, next) => {
      admit(req, res, req.ip);
      next();
    },
    inFlight: () => inFlight,
  };
}
