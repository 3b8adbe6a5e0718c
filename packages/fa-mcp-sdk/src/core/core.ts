/**
 * The core: everything a request needs, built once at start and passed to every
 * transport and protocol adapter (no module-level state).
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { DeprecationWarnings } from './deprecation.js';
import { Paginator } from './pagination.js';
import { Pipeline, type PipelineStep } from './pipeline.js';
import type { Registry } from './registry.js';
import { capResultStep } from './steps/cap-result.js';
import { mirrorStructuredStep } from './steps/mirror-structured.js';
import { deprecationStep } from './steps/deprecation.js';
import { taskSupportStep } from './steps/task-support.js';
import { requiredCapabilitiesStep } from './steps/client-capabilities.js';
import { resolveToolStep } from './steps/resolve-tool.js';
import { authorizeStep } from './steps/authorize.js';
import { validateInputStep } from './steps/validate-input.js';
import { paramHeadersStep } from './steps/param-headers.js';
import type { ArgumentErrorMode } from './argument-errors.js';
import { validateOutputStep } from './steps/validate-output.js';
import { createToolExecutor, type ToolHandler } from './tool-executor.js';
import type { WebhookSenderSource } from './webhook-sender.js';
import type { EventsPort } from './event-port.js';
import type { IServerInfo } from './types.js';
import type { ServerExtension } from './extensions.js';
import { NOTHING_DECLARED, type DeclaredCapabilities } from './declared-capabilities.js';
import { noopTelemetry, type Telemetry } from './telemetry.js';
import { randomUUID } from 'node:crypto';
import type { CoreLogger } from './logger-types.js';

/** Re-exported where the rooms have always imported it from; it lives in logger-types.ts. */
export type { CoreLogger } from './logger-types.js';

export interface CoreLimits {
  maxToolResultBytes: number;
  toolTimeoutMs: number;
  toolTimeouts: Record<string, number>;
  progressThrottleMs: number;
}

export interface CoreOptions {
  registry: Registry;
  serverInfo: Required<Pick<IServerInfo, 'name' | 'version'>> & IServerInfo;
  instructions?: string;
  logger: CoreLogger;
  limits: CoreLimits;
  defaultToolHandler?: ToolHandler;
  /** What handlers get as `webhooks`: one sender per request, scoped to its caller. */
  webhooks?: WebhookSenderSource;
  /** The Events extension (src/events): its methods, served on 2026-07-28, and what handlers get as `events`. */
  events?: EventsPort;
  extraSteps?: PipelineStep[];
  pageSize: number;
  /** The key of pagination cursors (`mcp.pagination.cursorSecret`, or a random one per process). */
  cursorSecret?: string;
  /** Limit steps: the rate limit runs first, the concurrency cap right before execution. */
  rateLimit?: PipelineStep;
  /** The budget of the REST routes (`mcp.rateLimit`, on the same store as the tool calls'). */
  restRateLimiter?: RateLimiterAbstract;
  concurrency?: PipelineStep;
  /** Extensions declared under capabilities.extensions, with their methods (skills, MCP Apps). */
  extensions?: ServerExtension[];
  /** Metrics, tracing and debug observation (ops/telemetry.ts); observes nothing when absent. */
  telemetry?: Telemetry;
  /** Observation steps (tool metrics, tool spans): run first, around everything else. */
  observeSteps?: PipelineStep[];
  /** Steps that may refuse any request first, right after the observation (the audit trail's gate in `sync` mode). */
  gateSteps?: PipelineStep[];
  /** Leave out of lists what the caller may not use (`webServer.auth.hideUnauthorized`). */
  hideUnauthorized?: boolean;
  /** logging, listChanged and subscribe as the server declares them (nothing when absent). */
  declared?: DeclaredCapabilities;
  /** How arguments that fail a tool's inputSchema are answered (`mcp.validation.argumentErrors`; `result` when absent). */
  argumentErrors?: ArgumentErrorMode;
}

export interface Core {
  registry: Registry;
  pipeline: Pipeline;
  serverInfo: CoreOptions['serverInfo'];
  instructions?: string;
  logger: CoreLogger;
  limits: CoreLimits;
  executeTool: ReturnType<typeof createToolExecutor>;
  paginator: Paginator;
  deprecations: DeprecationWarnings;
  extensions: ServerExtension[];
  telemetry: Telemetry;
  hideUnauthorized: boolean;
  /** logging, listChanged and subscribe as the server declares them (protocol/capabilities.ts). */
  declared: DeclaredCapabilities;
  /** The budget of the REST routes, when `mcp.rateLimit` is on (rest/mount.ts). */
  restRateLimiter?: RateLimiterAbstract;
  /** The Events extension, when the server declares event types. */
  events?: EventsPort;
}

export function createCore(opts: CoreOptions): Core {
  const { registry, limits } = opts;
  const deprecations = new DeprecationWarnings(opts.logger);
  const pipeline = new Pipeline([
    ...(opts.observeSteps ?? []),
    ...(opts.gateSteps ?? []),
    ...(opts.rateLimit ? [opts.rateLimit] : []),
    resolveToolStep(registry),
    authorizeStep(registry, (reason, detail) => core.telemetry.authFailure(reason, detail)),
    paramHeadersStep(registry.paramHeaders),
    deprecationStep(deprecations),
    requiredCapabilitiesStep(),
    taskSupportStep(),
    validateInputStep(registry.validator, opts.argumentErrors ?? 'result'),
    capResultStep(() => limits.maxToolResultBytes),
    mirrorStructuredStep(),
    validateOutputStep(registry.validator),
    ...(opts.concurrency ? [opts.concurrency] : []),
  ]);
  for (const step of opts.extraSteps ?? []) pipeline.use(step);
  const core: Core = {
    registry,
    pipeline,
    serverInfo: opts.serverInfo,
    logger: opts.logger,
    limits,
    paginator: new Paginator(`${opts.serverInfo.name}@${opts.serverInfo.version}`, opts.pageSize, opts.cursorSecret),
    deprecations,
    extensions: opts.extensions ?? [],
    telemetry: opts.telemetry ?? noopTelemetry(randomUUID),
    hideUnauthorized: opts.hideUnauthorized ?? false,
    declared: opts.declared ?? NOTHING_DECLARED,
    ...(opts.restRateLimiter ? { restRateLimiter: opts.restRateLimiter } : {}),
    ...(opts.events ? { events: opts.events } : {}),
    executeTool: createToolExecutor({
      ...(opts.defaultToolHandler ? { defaultHandler: opts.defaultToolHandler } : {}),
      configuredTimeoutMs: (name) => limits.toolTimeouts[name],
      defaultTimeoutMs: limits.toolTimeoutMs,
      ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
      ...(opts.events ? { events: opts.events.emitter } : {}),
      logsToClient: (opts.declared ?? NOTHING_DECLARED).logging,
    }),
  };
  if (opts.instructions !== undefined) core.instructions = opts.instructions;
  return core;
}
