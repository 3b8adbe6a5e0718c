/**
 * Mounts the REST side of the HTTP server: the consumer's routes under
 * `webServer.rest.basePath` (behind the Host/Origin guard, the authentication
 * middleware when there is one, the body limit and the REST rate limit), the
 * OpenAPI document as JSON and YAML, and the reference page (these too behind
 * the Host/Origin guard).
 */
import type { Express, RequestHandler } from 'express';
import { dump as dumpYaml } from 'js-yaml';
import type { AppConfig } from '../config/schema.js';
import type { Core } from '../core/core.js';
import type { ITool } from '../core/types.js';
import { createDocsRouter } from './docs-page.js';
import { buildOpenApiDocument } from './openapi.js';
import { createRestRouter } from './rest-router.js';
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
  onAnswered?: (route: string, method: string, status: number) => void;
}

export interface RestMount {
  /** The OpenAPI document (undefined when nothing is served). */
  document?: Record<string, unknown>;
}

export async function mountRest(input: RestMountInput): Promise<RestMount> {
  const { app, core, config } = input;
  const rest = config.webServer.rest;
  const exposeTools = rest.exposeTools && core.registry.hasTools;
  const hasRoutes = !!input.api && ((input.api.routes?.length ?? 0) > 0 || !!input.api.router);
  if (!rest.enabled || (!hasRoutes && !exposeTools)) return {};

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
  if (!oa.enabled) return {};
  const tools: ITool[] = core.registry.hasDynamicTools
    ? []
    : await core.registry.listTools({ requestId: 'openapi', era: '2025', transport: 'http', clientCapabilities: {} });
  const document = buildOpenApiDocument({
    api: input.api ?? {},
    basePath: rest.basePath,
    info: { title: core.serverInfo.title ?? core.serverInfo.name, version: core.serverInfo.version, ...(core.serverInfo.description ? { description: core.serverInfo.description } : {}) },
    tools,
    toolRoutes: exposeTools,
    bearerAuth: !!input.auth,
  });
  const json = JSON.stringify(document, null, 2);
  const yamlText = dumpYaml(document, { noRefs: true, lineWidth: 120 });
  // The document and its page sit behind the Host/Origin guard like every route but /health and /ready.
  app.get(oa.jsonPath, input.guard, (_req, res) => res.type('application/json').send(json));
  app.get(oa.yamlPath, input.guard, (_req, res) => res.type('application/yaml').send(yamlText));
  app.use(oa.docsPath, input.guard);
  app.use(createDocsRouter({ docsPath: oa.docsPath, specUrl: oa.jsonPath, title: core.serverInfo.title ?? core.serverInfo.name }));
  return { document };
}
