/**
 * Mounts the REST side of the HTTP server: the consumer's routes under
 * `webServer.rest.basePath` (behind the Host/Origin guard, the authentication
 * middleware when there is one, the body limit and the REST rate limit), the
 * OpenAPI document as JSON and YAML, and the reference page (these too behind
 * the Host/Origin guard). The document is made per caller: it names only the
 * tools and routes that caller may list, and with `webServer.openapi.access:
 * authenticated` the document and the page need the credentials of /mcp.
 */
import type { Express, RequestHandler } from 'express';
import type { AppConfig } from '../config/schema.js';
import type { Core } from '../core/core.js';
import { createDocsRouter } from './docs-page.js';
import { createOpenApiView } from './openapi-view.js';
import { createRestRouter, restContext } from './rest-router.js';
import type { IRestApi } from './types.js';

export interface RestMountInput {
  app: Express;
  core: Core;
  config: AppConfig;
  api: IRestApi | undefined;
  /** Host/Origin guard of the HTTP server. */
  guard: RequestHandler;
  /** JSON body parsing with the payload cap. */
  body: RequestHandler[];
  /** The authentication middleware (same schemes as /mcp), when authentication is on. */
  auth?: RequestHandler;
  /**
   * The authentication of the OpenAPI document and page, as /mcp asks it (its scopes and groups),
   * when authentication is on; `optional`: a request without credentials passes as anonymous.
   */
  docsAuth?: (optional: boolean) => RequestHandler;
  onAnswered?: (route: string, method: string, status: number) => void;
}

export interface RestMount {
  /** Whether the OpenAPI document and its page are served. */
  openapi: boolean;
}

export async function mountRest(input: RestMountInput): Promise<RestMount> {
  const { app, core, config } = input;
  const rest = config.webServer.rest;
  const exposeTools = rest.exposeTools && core.registry.hasTools;
  const hasRoutes = !!input.api && ((input.api.routes?.length ?? 0) > 0 || !!input.api.router);
  if (!rest.enabled || (!hasRoutes && !exposeTools)) return { openapi: false };

  const rl = config.mcp.rateLimit;
  // Built with the core, on the configured store (memory, or PostgreSQL shared by every instance).
  const limiter = rl.enabled ? core.restRateLimiter : undefined;
  const router = createRestRouter({
    api: input.api ?? {},
    core,
    exposeTools,
    defaultTimeoutMs: config.mcp.limits.toolTimeoutMs,
    ...(limiter ? { rateLimit: { limiter, scope: rl.scope } } : {}),
    ...(input.onAnswered ? { onAnswered: input.onAnswered } : {}),
  });
  app.use(rest.basePath, input.guard, ...(input.auth ? [input.auth] : []), ...input.body, router);

  const oa = config.webServer.openapi;
  if (!oa.enabled) return { openapi: false };
  const view = createOpenApiView(core, {
    api: input.api ?? {},
    basePath: rest.basePath,
    info: { title: core.serverInfo.title ?? core.serverInfo.name, version: core.serverInfo.version, ...(core.serverInfo.description ? { description: core.serverInfo.description } : {}) },
    toolRoutes: exposeTools,
    bearerAuth: !!input.auth,
  });
  // Behind the Host/Origin guard like every route but /health and /ready; then the caller, as /mcp knows it.
  const who = input.docsAuth ? [input.docsAuth(oa.access === 'listed')] : [];
  const serve = (type: string, pick: 'json' | 'yaml'): RequestHandler => (req, res, next) => {
    view.documentFor(restContext(req, res, core)).then((doc) => {
      // Each caller its own document: no shared cache may hand one caller's to another.
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('Vary', 'Authorization');
      res.type(type).send(doc[pick]);
    }, next);
  };
  app.get(oa.jsonPath, input.guard, ...who, serve('application/json', 'json'));
  app.get(oa.yamlPath, input.guard, ...who, serve('application/yaml', 'yaml'));
  app.use(oa.docsPath, input.guard, ...(oa.access === 'authenticated' ? who : []));
  app.use(createDocsRouter({ docsPath: oa.docsPath, specUrl: oa.jsonPath, title: core.serverInfo.title ?? core.serverInfo.name }));
  return { openapi: true };
}
