/**
 * What a consumer declares to serve REST next to MCP: routes with JSON Schemas
 * (validated, and documented in the OpenAPI document), and optionally a raw
 * express router for anything the declarations cannot express.
 */
import type { CoreLogger } from '../core/core.js';
import type { HttpRouter } from '../core/http-types.js';
import type { RequestContext } from '../core/request-context.js';
import type { JsonObject } from '../core/types.js';

export type RestMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface IRestRequest {
  /** Path parameters (`/users/:id` -> `{ id }`), coerced to the types of `route.params`. */
  params: Record<string, unknown>;
  /** Query parameters, coerced to the types of `route.query`. */
  query: Record<string, unknown>;
  /** The JSON body (validated against `route.body`). */
  body: unknown;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Request id, auth, client address, trace, request-bound logger. */
  context: RequestContext;
  logger: CoreLogger;
  /** Aborted when the client goes away or the route's time limit passes. */
  signal: AbortSignal;
}

export interface IRestResponseDoc {
  description: string;
  schema?: JsonObject;
}

export interface IRestRoute {
  method: RestMethod;
  /** Express-style path below the REST base path, e.g. `/users/:id`. */
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  /** JSON Schema (type object) of the path parameters. */
  params?: JsonObject;
  /** JSON Schema (type object) of the query parameters. */
  query?: JsonObject;
  /** JSON Schema of the request body (POST, PUT, PATCH). */
  body?: JsonObject;
  /** JSON Schema of the success body (documented, not enforced). */
  response?: JsonObject;
  /** Status of a successful answer (default 200; 204 when the handler returns undefined). */
  status?: number;
  /** Extra documented answers, by status code. */
  responses?: Record<string, IRestResponseDoc>;
  /** Scopes the caller must hold (checked when the request is authenticated or auth is on). */
  scopes?: string[];
  /** Time limit in ms (default: mcp.limits.toolTimeoutMs). */
  timeoutMs?: number;
  handler: (req: IRestRequest) => unknown;
}

export interface IRestApi {
  routes?: IRestRoute[];
  /** Any express router of yours, mounted after the declared routes under the same base path, auth and limits. */
  router?: HttpRouter;
  /** Overrides of the document's `info` (default: server name, version, description). */
  info?: { title?: string; version?: string; description?: string };
  /** Extra OpenAPI path items, to document routes of `router`. */
  paths?: Record<string, JsonObject>;
}
