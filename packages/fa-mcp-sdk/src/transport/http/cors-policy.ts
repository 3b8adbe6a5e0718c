/**
 * CORS for browser clients, on the `cors` package with an exact origin check
 * (origin-allow-list.ts). An allowed origin gets its own serialized origin back
 * in Access-Control-Allow-Origin (never `*`), the MCP headers exposed, and
 * Access-Control-Allow-Credentials only when `credentials` is configured.
 * A preflight from any other origin is refused with 403; a plain OPTIONS (no
 * Origin) is answered 204 with Allow.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
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
  const withCors = cors({
    // The callback hands back the serialized allowed origin, so the header echoes
    // the allow-list entry, not the request's spelling of it.
    origin: (origin, done) => done(null, list.match(origin) ?? false),
    methods: ALLOWED_METHODS,
    // allowedHeaders unset: the requested headers are reflected, which covers the
    // per-parameter Mcp-Param-* headers of the 2026 revision; only listed origins get this far.
    exposedHeaders: EXPOSED_HEADERS,
    credentials: opts.credentials,
    maxAge: opts.maxAgeSec,
    optionsSuccessStatus: 204,
  });

  return (req, res, next) => {
    const allowed = list.match(req.headers.origin) !== undefined;
    if (allowed) return withCors(req, res, next);
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
