/**
 * Timeouts against slow clients (slow-loris style header or body trickle).
 *
 * - headers: node's `headersTimeout`; a client that has not sent all its headers
 *   in time gets a bare 408 and is disconnected.
 * - whole request: node's `requestTimeout`, which bounds receiving the request
 *   (headers and body) and never the response, so SSE streams stay open.
 * - body: `bodyReadTimeout()`, an express middleware in front of the body parser
 *   that answers a body not received in time with 408 and a JSON-RPC error,
 *   then closes the connection.
 * - keep-alive: node's `keepAliveTimeout` for idle connections between requests.
 *
 * Node checks the header and request deadlines on a timer
 * (`connectionsCheckingInterval`, 30 s by default); it is derived here from the
 * configured deadlines so they hold to within a fraction of their length.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ConfigError } from '../../config/config-error.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { sendJsonRpcError } from './json-rpc-reply.js';

export interface SlowClientTimeouts {
  headersMs: number;
  bodyMs: number;
  requestMs: number;
  keepAliveMs: number;
}

/** Options for `http.createServer`; throws a ConfigError for an impossible combination. */
export function serverTimeoutOptions(t: SlowClientTimeouts): ServerOptions {
  if (t.requestMs < t.headersMs) {
    throw new ConfigError([
      { path: 'webServer.timeouts.requestMs', message: `must be >= webServer.timeouts.headersMs (${t.headersMs}); got ${t.requestMs}` },
    ]);
  }
  const checkEvery = Math.min(5_000, Math.max(50, Math.floor(Math.min(t.headersMs, t.requestMs) / 5)));
  return {
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: checkEvery,
  };
}

const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * Answers 408 (JSON-RPC -32004) when the body of `req` is not fully received
 * within `ms`, then closes the connection. Returns false when there is nothing
 * to wait for (the body is already in, or there is none).
 */
export function armBodyTimeout(req: IncomingMessage, res: ServerResponse, ms: number): boolean {
  if (req.complete || !hasBody(req.headers)) return false;
  const timer = setTimeout(() => {
    if (req.complete || res.headersSent) return;
    res.setHeader('Connection', 'close');
    sendJsonRpcError(res, 408, MCP_ERROR_CODES.TIMEOUT, `Request body not received within ${ms} ms`);
    // `Connection: close` makes node end the socket once the answer is flushed;
    // a client that stops reading too is dropped a moment later.
    res.once('finish', () => setTimeout(() => req.socket.destroy(), 1_000).unref());
  }, ms);
  // Clearing twice is harmless: plain listeners, without a once-wrapper each on every request.
  const clear = () => clearTimeout(timer);
  req.on('end', clear);
  req.on('close', clear);
  res.on('close', clear);
  return true;
}

/** The express face of armBodyTimeout, in front of the body parser. */
export function bodyReadTimeout(ms: number): RequestHandler {
  return (req, res, next) => {
    armBodyTimeout(req, res, ms);
    next();
  };
}
