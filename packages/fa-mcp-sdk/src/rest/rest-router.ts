/**
 * The consumer's REST routes under `webServer.rest.basePath`: each declared
 * route gets its path, query and body validated against its JSON Schemas
 * (compiled once), a time limit, the caller's scopes checked, the REST rate
 * limit, and errors mapped like MCP errors. With `exposeTools`, every tool is
 * also `POST <base>/tools/<name>`, run through the same pipeline as tools/call.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { callerKey, type LimitScope } from '../core/caller-key.js';
import type { Core } from '../core/core.js';
import { rateLimiterRes } from '../core/rate-limiter-lib.js';
import { ForbiddenError, MCP_ERROR_CODES, RateLimitedError, ServerError, TimeoutError, ValidationError } from '../core/errors.js';
import type { RequestContext } from '../core/request-context.js';
import type { JsonObject } from '../core/types.js';
import { getTraceContext } from '../transport/http/traceparent.js';
import { coerceBySchema } from './coerce.js';
import { sendRestError } from './rest-errors.js';
import { createToolRoutes } from './tool-routes.js';
import type { IRestApi, IRestRoute } from './types.js';

export interface RestRouterOptions {
  api: IRestApi;
  core: Core;
  exposeTools: boolean;
  defaultTimeoutMs: number;
  rateLimit?: { limiter: RateLimiterAbstract; scope: LimitScope };
  /** Called once per answered request (metrics). */
  onAnswered?: (route: string, method: string, status: number) => void;
}

/** The RequestContext of a REST request (transport `http`; REST has no protocol era, `2025` is used). */
export function restContext(req: Request, res: Response, core: Core): RequestContext {
  const requestId = String(res.locals.requestId ?? '');
  const trace = getTraceContext(req).traceparent;
  const tracestate = getTraceContext(req).tracestate;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  const ctx: RequestContext = {
    requestId,
    era: '2025',
    transport: 'http',
    clientCapabilities: {},
    headers,
    logger: core.logger.child({ requestId, ...(trace ? { traceId: trace.traceId } : {}) }),
  };
  const auth = res.locals.auth as RequestContext['auth'];
  if (auth) ctx.auth = auth;
  const address = req.ip ?? req.socket.remoteAddress;
  if (address) ctx.remoteAddress = address;
  if (trace) ctx.trace = { traceId: trace.traceId, parentId: trace.parentId, sampled: trace.sampled, ...(tracestate ? { tracestate } : {}) };
  return ctx;
}

export function createRestRouter(opts: RestRouterOptions): Router {
  const router = express.Router();
  const validator = opts.core.registry.validator;
  const RateLimiterRes = rateLimiterRes();

  router.use(async (req, res, next) => {
    const started = res.locals.restStarted === undefined;
    if (started) {
      res.locals.restStarted = true;
      res.once('finish', () => opts.onAnswered?.(String(res.locals.restRoute ?? 'custom'), req.method, res.statusCode));
    }
    if (!opts.rateLimit) return next();
    const ctx = restContext(req, res, opts.core);
    try {
      await opts.rateLimit.limiter.consume(`rest|${callerKey(ctx, opts.rateLimit.scope)}`);
      next();
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        return sendRestError(res, new RateLimitedError(`Rate limit exceeded; retry after ${retryAfter} s`, retryAfter), ctx.requestId, ctx.logger ?? opts.core.logger);
      }
      next(err);
    }
  });

  for (const route of opts.api.routes ?? []) {
    for (const schema of [route.params, route.query, route.body]) if (schema) validator.compile(schema);
    router[route.method](route.path, (req, res) => {
      res.locals.restRoute = route.path;
      void serveRoute(route, req, res, opts);
    });
  }
  if (opts.exposeTools) router.use('/tools', createToolRoutes(opts.core, (req, res) => restContext(req, res, opts.core)));
  if (opts.api.router) router.use(opts.api.router);
  router.use((req, res) => {
    const ctx = restContext(req, res, opts.core);
    res.locals.restRoute = 'not_found';
    const err = new ServerError(`No REST route ${req.method} ${req.path}`, 404, { method: req.method }, MCP_ERROR_CODES.METHOD_NOT_FOUND);
    sendRestError(res, err, ctx.requestId, opts.core.logger);
  });
  return router;
}

async function serveRoute(route: IRestRoute, req: Request, res: Response, opts: RestRouterOptions): Promise<void> {
  const ctx = restContext(req, res, opts.core);
  const logger = ctx.logger ?? opts.core.logger;
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort(new Error('client closed the connection'));
  };
  res.once('close', onClose);
  const timeoutMs = route.timeoutMs ?? opts.defaultTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  try {
    checkScopes(route, ctx);
    const params = validated('path', route.params, coerceBySchema(route.params, req.params), opts.core);
    const query = validated('query', route.query, coerceBySchema(route.query, req.query as Record<string, unknown>), opts.core);
    const body = route.body ? validated('body', route.body, req.body, opts.core) : req.body;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const err = new TimeoutError(`REST route ${route.method.toUpperCase()} ${route.path} timed out after ${timeoutMs} ms`, { timeoutMs });
        controller.abort(err);
        reject(err);
      }, timeoutMs);
      timer.unref();
    });
    const headers = ctx.headers ?? {};
    const result = await Promise.race([
      Promise.resolve().then(() => route.handler({ params, query, body, headers, context: ctx, logger, signal: controller.signal })),
      timeout,
    ]);
    if (res.headersSent) return;
    if (result === undefined) res.status(route.status ?? 204).end();
    else res.status(route.status ?? 200).json(result);
  } catch (err) {
    sendRestError(res, err, ctx.requestId, logger);
  } finally {
    clearTimeout(timer);
    res.off('close', onClose);
  }
}

function checkScopes(route: IRestRoute, ctx: RequestContext): void {
  if (!route.scopes || route.scopes.length === 0) return;
  const held = new Set(ctx.auth?.scopes ?? []);
  const missing = route.scopes.filter((s) => !held.has(s));
  if (missing.length > 0) throw new ForbiddenError('Insufficient scope for this route', { requiredScopes: route.scopes, missingScopes: missing });
}

function validated<T>(where: string, schema: JsonObject | undefined, value: T, core: Core): T {
  if (!schema) return value;
  const outcome = core.registry.validator.validate(schema, value);
  if (outcome.ok) return value;
  const first = outcome.issues[0];
  throw new ValidationError(`Invalid ${where}: ${first ? `${first.field} ${first.reason}` : 'does not match its schema'}`, {
    in: where,
    ...(first ? { field: first.field, reason: first.reason } : {}),
    issues: outcome.issues.slice(0, 20),
  });
}
