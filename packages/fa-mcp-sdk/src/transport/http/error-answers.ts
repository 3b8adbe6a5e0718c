/**
 * The last word of every express app of the server (in place of express's
 * final handler): an error no route answered (a body parser's refusal, a
 * throw) and a path nobody serves are
 * answered as JSON in the shape of the route family, never with express's
 * default HTML page (which carries the stack trace outside production):
 *
 * - MCP endpoints (`/mcp`, `/sse`, `/messages`): a JSON-RPC error;
 * - OAuth and token endpoints (`/oauth/…`, `/.well-known/…`, the mint path):
 *   RFC 6749's `{ error, error_description }`;
 * - REST routes (under `webServer.rest.basePath`): the REST error body
 *   `{ error: { code, message }, requestId }`;
 * - anything else: `{ error, message }`.
 *
 * 4xx refusals keep their status (400 unreadable or malformed body, 413 too
 * large or too many fields, 415 unsupported encoding or charset) with a fixed
 * message; anything else is a 500 whose cause goes to the log only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreLogger } from '../../core/core.js';
import { MCP_ERROR_CODES } from '../../core/errors.js';
import { sendJsonRpcError } from './json-rpc-reply.js';

export interface ErrorAnswerRoutes {
  /** Path prefixes answered in OAuth's shape (e.g. the mint endpoint's path); `/oauth/` and `/.well-known/` always are. */
  oauthPaths?: string[];
  /** `webServer.rest.basePath`, when REST routes are mounted. */
  restBasePath?: string;
  /** Where the causes of 500s go. */
  logger?: CoreLogger;
}

interface Refusal {
  status: number;
  code: number;
  /** Short machine name (OAuth and plain answers). */
  name: string;
  message: string;
}

const MCP_PATHS = ['/mcp', '/sse', '/messages'];

/** What to answer for an error a route left: its status when it is a client error, else 500. */
export function refusalFor(err: unknown): Refusal {
  const e = (err ?? {}) as { type?: unknown; status?: unknown; statusCode?: unknown };
  const raw = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
  const status = Number.isInteger(raw) && raw >= 400 && raw < 600 ? raw : 500;
  if (e.type === 'entity.parse.failed') return { status: 400, code: MCP_ERROR_CODES.PARSE_ERROR, name: 'invalid_request', message: 'Parse error: the body is not valid' };
  if (status === 413) {
    const message = e.type === 'parameters.too.many' ? 'Request body has too many fields' : 'Request body too large';
    return { status, code: MCP_ERROR_CODES.PAYLOAD_TOO_LARGE, name: 'invalid_request', message };
  }
  if (status === 415) return { status, code: MCP_ERROR_CODES.INVALID_REQUEST, name: 'invalid_request', message: 'Unsupported body encoding or charset' };
  if (status >= 400 && status < 500) return { status, code: MCP_ERROR_CODES.INVALID_REQUEST, name: 'invalid_request', message: 'Bad request: the request could not be read' };
  return { status: 500, code: MCP_ERROR_CODES.INTERNAL_ERROR, name: 'server_error', message: 'Internal error' };
}

const under = (path: string, prefix: string) => prefix !== '' && prefix !== '/' && (path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));

/** The path of a request, whatever router it left (mounted routers restore `url`; `originalUrl` is express's). */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

/** Express's app as node calls it, with the final handler express otherwise supplies (finalhandler, an HTML page). */
type AppWithDone = (req: IncomingMessage, res: ServerResponse, done: (err?: unknown) => void) => void;

/** The node listener of an express app whose final handler is `finalAnswer(opts)`. */
export function answeringListener(app: unknown, opts: ErrorAnswerRoutes): (req: IncomingMessage, res: ServerResponse) => void {
  const finish = finalAnswer(opts);
  // @types/express declares the app with two parameters; express 5's app takes the final handler third.
  const handle = app as AppWithDone;
  return (req, res) => handle(req, res, finish(req, res));
}

/**
 * The app's final handler, in place of express's own: `app(req, res, finalAnswer(...))`. With an
 * error, the error's answer; without, a 404 (no route took the request). Routes added to the app
 * later (handle.http.app.get(...)) still come first.
 */
export function finalAnswer(opts: ErrorAnswerRoutes): (req: IncomingMessage, res: ServerResponse) => (err?: unknown) => void {
  const oauthPaths = ['/oauth/', '/.well-known/', ...(opts.oauthPaths ?? [])];
  const send = (req: IncomingMessage, res: ServerResponse, refusal: Refusal): void => {
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    const path = pathOf(req);
    if (MCP_PATHS.some((p) => under(path, p))) return sendJsonRpcError(res, refusal.status, refusal.code, refusal.message);
    if (oauthPaths.some((p) => under(path, p))) return sendJson(res, refusal.status, { error: refusal.name, error_description: refusal.message });
    if (opts.restBasePath && under(path, opts.restBasePath)) {
      const requestId = String(res.getHeader('x-request-id') ?? '');
      return sendJson(res, refusal.status, { error: { code: refusal.code, message: refusal.message }, requestId });
    }
    sendJson(res, refusal.status, { error: refusal.name, message: refusal.message });
  };
  return (req, res) => (err) => {
    if (err === undefined || err === null) {
      return send(req, res, { status: 404, code: MCP_ERROR_CODES.INVALID_REQUEST, name: 'not_found', message: 'Not found' });
    }
    // The client went away mid-body: nobody is left to answer.
    if ((err as { type?: unknown }).type === 'request.aborted') return;
    const refusal = refusalFor(err);
    if (refusal.status >= 500) opts.logger?.error({ err, path: pathOf(req) }, 'HTTP request failed');
    send(req, res, refusal);
  };
}
