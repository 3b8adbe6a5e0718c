/**
 * CORS for browser clients, with an exact origin check (origin-allow-list.ts).
 * An allowed origin gets its own serialized origin back in
 * Access-Control-Allow-Origin (never `*`, `Vary: Origin`), the MCP headers
 * exposed, and Access-Control-Allow-Credentials only when `credentials` is
 * configured; its preflight (any OPTIONS) is answered 204 with the methods, the
 * requested headers reflected and the max age. A preflight from any other origin
 * is refused with 403; a plain OPTIONS (no Origin) is answered 204 with Allow.
 * The few headers are set here (the `cors` package did the same with a tree of
 * its own, issue 24); express's `res.vary()` merges Vary.
 */
import type { RequestHandler, Response } from 'express';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { sendJsonRpcError } from './json-rpc-reply.js';
import { originAllowList } from './origin-allow-list.js';

export interface CorsPolicyOptions {
  enabled: boolean;
  /** Exact origins (`webServer.allowedOrigins`). */
  allowedOrigins: readonly string[];
  credentials: boolean;
  maxAgeSec: number;
}

const ALLOWED_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];
/** Response headers a browser client needs to read. */
const EXPOSED_HEADERS = ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'X-Request-Id', 'Retry-After', 'WWW-Authenticate'];

const isPreflight = (method: string, headers: Record<string, unknown>): boolean =>
  method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;

export function corsPolicy(opts: CorsPolicyOptions): RequestHandler {
  const list = originAllowList(opts.enabled ? opts.allowedOrigins : []);
  const methods = ALLOWED_METHODS.join(',');
  const exposed = EXPOSED_HEADERS.join(',');
  const maxAge = String(opts.maxAgeSec);
  // The header echoes the allow-list entry, not the request's spelling of it.
  const allowOrigin = (res: Response, origin: string) => {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.vary('Origin');
    if (opts.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', exposed);
  };

  return (req, res, next) => {
    const origin = list.match(req.headers.origin);
    if (origin !== undefined) {
      allowOrigin(res, origin);
      if (req.method !== 'OPTIONS') return next();
      res.setHeader('Access-Control-Allow-Methods', methods);
      // The requested headers are reflected, which covers the per-parameter Mcp-Param-*
      // headers of the 2026 revision; only listed origins get this far.
      const requested = req.headers['access-control-request-headers'];
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.vary('Access-Control-Request-Headers');
      res.setHeader('Access-Control-Max-Age', maxAge);
      res.setHeader('Content-Length', '0');
      res.status(204).end();
      return;
    }
    if (isPreflight(req.method, req.headers)) {
      return sendJsonRpcError(res, 403, MCP_ERROR_CODES.FORBIDDEN, 'Forbidden: origin not allowed by CORS policy');
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', ALLOWED_METHODS.join(', '));
      res.status(204).end();
      return;
    }
    next();
  };
}
