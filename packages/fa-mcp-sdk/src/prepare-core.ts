/**
 * Turns the consumer's McpServerData and the configuration into the core:
 * registry (with built-in resources and prompts), server info (icons as data
 * URIs, version from package.json), instructions under their budget, and the
 * report of overdue deprecations.
 */
import type { PipelineStep } from './core/pipeline.js';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from './config/schema.js';
import { builtinPrompts, builtinResources } from './core/builtins.js';
import { createCore, type Core, type CoreLogger } from './core/core.js';
import { overdueDeprecations } from './core/deprecation.js';
import { resolveIcons } from './core/icons.js';
import { assembleInstructions } from './core/instructions.js';
import { Registry } from './core/registry.js';
import { concurrencyStep } from './core/steps/concurrency.js';
import { rateLimitStep } from './core/steps/rate-limit.js';
import { createRateLimiters } from './state/rate-limiters.js';
import type { Databases } from './db/databases.js';
import type { McpServerData } from './server-data.js';
import type { PackageInfo } from './ops/package-info.js';
import { sdkVersion } from './ops/sdk-version.js';
import { withDebugTools } from './ops/debug-tools.js';
import type { ServerTelemetry } from './ops/telemetry.js';
import { appsExtension } from './apps/apps-support.js';
import { createAppToolView } from './apps/tool-view.js';
import { Paginator } from './core/pagination.js';
import { prepareSkills } from './skills/prepare-skills.js';
import type { WebhookSenderSource } from './core/webhook-sender.js';
import { deriveCapabilities } from './protocol/capabilities.js';
import { enterpriseAuthExtensions } from './auth/enterprise-extension.js';
import type { EventsRuntime } from './events/events-runtime.js';

export { sdkVersion } from './ops/sdk-version.js';

export interface PrepareInput {
  data: McpServerData;
  config: AppConfig;
  pkg: PackageInfo;
  cwd: string;
  logger: CoreLogger;
  name: string;
  /** The `use://auth` text built from `webServer.auth` (used when the consumer gives none). */
  describeAuth?: () => Record<string, unknown>;
  /** Metrics, tracing and debug observation (ops/telemetry.ts). */
  telemetry?: ServerTelemetry;
  /** NODE_ENV, for the production refusal of the debug tools. */
  nodeEnv?: string;
  /** The server's databases (`mcp.rateLimit.store: postgres` uses one). */
  databases?: Databases;
  /** What handlers get as `webhooks` (scoped to each request's caller). */
  webhooks?: WebhookSenderSource;
  /** Steps run before every other but the observation (the audit trail's gate in `sync` mode). */
  gateSteps?: PipelineStep[];
  /** The Events extension (init-events.ts), when the server declares event types. */
  events?: EventsRuntime;
}

export async function prepareCore({ data, config, pkg, cwd, logger, name, describeAuth, telemetry, nodeEnv = 'development', databases, webhooks, gateSteps, events }: PrepareInput): Promise<Core> {
  const version = data.serverInfo?.version ?? pkg.version ?? '0.0.0';
  const builtins = {
    serverName: name,
    serverVersion: version,
    sdkVersion: sdkVersion(),
    authDescription: () =>
      data.authDescription?.() ?? describeAuth?.() ?? { required: false, schemes: [], note: 'This server does not require authentication.' },
    ...(data.agentBrief ? { agentBrief: data.agentBrief } : {}),
    ...(data.agentPrompt ? { agentPrompt: data.agentPrompt } : {}),
  };
  // One key for every list of this process; instances share it only when it is configured.
  const cursorSecret = config.mcp.pagination.cursorSecret || randomBytes(32).toString('base64url');
  const prompts = data.prompts ?? [];
  // Resources given as a function are resolved per request (registry.dynamicResources), after the static ones.
  const resources = Array.isArray(data.resources) ? data.resources : [];
  const resourceSource = typeof data.resources === 'function' ? data.resources : undefined;
  const skills = data.skills
    ? prepareSkills(data.skills, {
        cwd,
        paginator: new Paginator(`${name}@${version}`, config.mcp.pagination.pageSize, cursorSecret),
        warn: (message) => logger.warn({ skills: true }, message),
      })
    : undefined;
  const tools = withDebugTools(data.tools, { ...config.mcp.debug, nodeEnv, maxToolResultBytes: config.mcp.limits.maxToolResultBytes });
  const registry = new Registry({
    ...(tools ? { tools } : {}),
    prompts: [...prompts, ...builtinPrompts(builtins, new Set(prompts.map((p) => p.name)))],
    resources: [...resources, ...builtinResources(builtins, new Set(resources.map((r) => r.uri))), ...(skills?.resources ?? [])],
    ...(resourceSource ? { resourceSource } : {}),
    resourceTemplates: [...(data.resourceTemplates ?? []), ...(skills?.templates ?? [])],
    excludeTools: config.mcp.excludeTools,
    toolNameRule: config.mcp.tools.nameRule,
    toolView: createAppToolView(),
  });
  const apps = appsExtension({
    resources: registry.resources.values(),
    ...(data.tools ? { tools: data.tools } : {}),
    serves: (uri) => registry.resources.has(uri) || registry.findTemplate(uri) !== undefined,
  });

  const listing = skills?.listing ?? [];
  const instructions =
    data.instructions || listing.length > 0
      ? assembleInstructions(data.instructions ?? '', config.mcp.instructions.budget, config.mcp.excludeTools, listing)
      : undefined;
  if (instructions) logger.debug({ length: instructions.length, budget: instructions.budget }, 'instructions assembled');
  if (instructions?.listingLevel === -1) logger.warn({ budget: instructions.budget }, 'the skill listing does not fit the instructions budget (mcp.instructions.budget); it is left out');

  const { icons: iconSources, ...info } = data.serverInfo ?? {};
  const icons = resolveIcons(iconSources, cwd);
  const rl = config.mcp.rateLimit;
  if (rl.enabled && rl.store === 'postgres' && !databases) throw new Error('mcp.rateLimit.store "postgres" needs the server\'s databases (db.postgres.dbs)');
  const rlPool = rl.enabled && rl.store === 'postgres' ? await databases?.get(rl.database).pool() : undefined;
  const limiters = rl.enabled ? await createRateLimiters(rl, rlPool) : undefined;
  // The REST routes get a budget of their own with the same settings, on the same store (shared by instances too).
  const restLimiter = rl.enabled ? (await createRateLimiters({ ...rl, perTool: {}, methods: {} }, rlPool, { prefix: 'rest', clearExpired: false })).general : undefined;
  const core = createCore({
    registry,
    serverInfo: {
      ...(pkg.description ? { description: pkg.description } : {}),
      ...(pkg.homepage ? { websiteUrl: pkg.homepage } : {}),
      ...info,
      ...(icons ? { icons } : {}),
      name,
      version,
    },
    ...(instructions ? { instructions: instructions.text } : {}),
    logger,
    limits: {
      maxToolResultBytes: config.mcp.limits.maxToolResultBytes,
      toolTimeoutMs: config.mcp.limits.toolTimeoutMs,
      toolTimeouts: config.mcp.limits.toolTimeouts,
      progressThrottleMs: config.mcp.progress.throttleMs,
    },
    pageSize: config.mcp.pagination.pageSize,
    cursorSecret,
    argumentErrors: config.mcp.validation.argumentErrors,
    hideUnauthorized: config.webServer.auth.hideUnauthorized,
    ...(limiters ? { rateLimit: rateLimitStep({ scope: rl.scope, general: limiters.general, perTool: limiters.perTool, perMethod: limiters.perMethod }) } : {}),
    ...(restLimiter ? { restRateLimiter: restLimiter } : {}),
    ...(rl.enabled && rl.maxConcurrentPerSubject > 0 ? { concurrency: concurrencyStep(rl.maxConcurrentPerSubject) } : {}),
    ...(data.toolHandler ? { defaultToolHandler: data.toolHandler } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(events ? { events } : {}),
    ...(data.steps ? { extraSteps: data.steps } : {}),
    ...(telemetry ? { telemetry: telemetry.telemetry, observeSteps: telemetry.steps(registry) } : {}),
    ...(gateSteps && gateSteps.length > 0 ? { gateSteps } : {}),
    extensions: [...(skills ? [skills.extension] : []), ...(apps ? [apps] : []), ...enterpriseAuthExtensions(config)],
    declared: deriveCapabilities({
      config: config.mcp.capabilities,
      ...(data.capabilities ? { declared: data.capabilities } : {}),
      dynamicTools: registry.hasDynamicTools,
      dynamicResources: resourceSource !== undefined,
    }),
  });

  // The event types' requirements are checked right after the core's authorize step, before any consumer step.
  if (events) core.pipeline.use(events.authorizeStep(config.webServer.auth.hideUnauthorized, (reason, detail) => core.telemetry.authFailure(reason, detail)), { after: 'authorize' });

  const overdue = overdueDeprecations([
    ...(Array.isArray(data.tools) ? data.tools.map((t) => ({ kind: 'tool', name: t.name, ...(t.deprecated ? { deprecated: t.deprecated } : {}) })) : []),
    ...prompts.map((p) => ({ kind: 'prompt', name: p.name, ...(p.deprecated ? { deprecated: p.deprecated } : {}) })),
    ...resources.map((r) => ({ kind: 'resource', name: r.uri, ...(r.deprecated ? { deprecated: r.deprecated } : {}) })),
  ]);
  if (overdue.length > 0) logger.warn({ overdue }, `deprecated items past their removal date: ${overdue.join(', ')}`);
  return core;
}
