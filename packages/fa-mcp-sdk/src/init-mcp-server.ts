/**
 * initMcpServer: loads configuration, builds the core once, starts the
 * configured transport, and returns a handle that stops it gracefully.
 */
import type { Readable, Writable } from 'node:stream';
import { loadConfig, type LoadConfigOptions } from './config/index.js';
import type { AppConfig } from './config/schema.js';
import type { Core } from './core/core.js';
import type { PipelineStep } from './core/pipeline.js';
import type { IInstructionsParts } from './core/instructions.js';
import type { IIconFile } from './core/icons.js';
import type { ToolHandler } from './core/tool-executor.js';
import type { IIcon, IPromptData, IResourceData, IResourceTemplateInfo, IServerInfo, TToolsSource } from './core/types.js';
import type { ReadinessCheck } from './ops/health.js';
import { createLogger, type Logger } from './ops/logger.js';
import { readPackageInfo } from './ops/package-info.js';
import { runShutdown, type ShutdownOutcome } from './ops/shutdown.js';
import { prepareCore } from './prepare-core.js';
import { LiveServers } from './protocol/live-servers.js';
import { InMemoryEventStore, type IEventStore } from './state/event-store-memory.js';
import { startHttpServer, type RunningHttpServer } from './transport/http/http-server.js';
import { startStdio } from './transport/stdio.js';

export interface McpServerData {
  /** The tools: an array (checked at start) or a function resolved per request. */
  tools?: TToolsSource;
  /** Handles every tool that has no handler of its own. */
  toolHandler?: ToolHandler;
  prompts?: IPromptData[];
  resources?: IResourceData[];
  resourceTemplates?: IResourceTemplateInfo[];
  /** name, version (default: package.json), title, description, websiteUrl, icons (files become data: URIs). */
  serverInfo?: Omit<IServerInfo, 'icons'> & { icons?: Array<IIcon | IIconFile> };
  /** Plain text, or parts assembled under `mcp.instructions.budget`. */
  instructions?: string | IInstructionsParts;
  /** Text of the standard `agent_brief` prompt and `<name>://agent/brief` resource. */
  agentBrief?: string;
  /** Text of the standard `agent_prompt` prompt and `<name>://agent/prompt` resource. */
  agentPrompt?: string;
  /** What `use://auth` tells clients about authentication (no secrets). */
  authDescription?: () => Record<string, unknown>;
  /** Consumer pipeline steps (audit, caching, tenancy), run before tool execution. */
  steps?: PipelineStep[];
  /** Named readiness checks for /ready (databases, upstream APIs). */
  readinessChecks?: ReadinessCheck[];
  /** Resumability event store for 2025-era SSE streams; in memory by default. */
  eventStore?: IEventStore;
}

export interface InitOptions extends Omit<LoadConfigOptions, 'overrides'> {
  /** Highest configuration layer (tests, embedding). */
  config?: Record<string, unknown>;
  /** Register SIGTERM/SIGINT handlers that stop the server and exit (default true). */
  handleSignals?: boolean;
  stdin?: Readable;
  stdout?: Writable;
  /** Where logs go; defaults to stdout for HTTP and stderr for stdio. */
  logDestination?: NodeJS.WritableStream | number;
}

export interface McpServerHandle {
  config: AppConfig;
  logger: Logger;
  core: Core;
  /** The MCP endpoint URL on HTTP transports. */
  url?: string;
  port?: number;
  http?: RunningHttpServer;
  /** Sends notifications/resources/updated to every connection subscribed to the URI. */
  notifyResourceUpdated(uri: string): Promise<number>;
  /** Sends notifications/<kind>/list_changed to every connection. */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void>;
  /** Graceful stop: drain in-flight requests within the grace period, then close. */
  stop(reason?: string): Promise<ShutdownOutcome>;
  readonly stopped: boolean;
}

export async function initMcpServer(data: McpServerData, options: InitOptions = {}): Promise<McpServerHandle> {
  const { config: overrides, handleSignals = true, stdin, stdout, logDestination, ...loadOpts } = options;
  const loaded = loadConfig({ ...loadOpts, ...(overrides ? { overrides } : {}) });
  const config = loaded.config;
  const pkg = readPackageInfo(loadOpts.cwd ?? process.cwd());
  const isStdio = config.mcp.transportType === 'stdio';
  const name = data.serverInfo?.name ?? (config.name || pkg.name || 'fa-mcp-server');
  const logger = createLogger({
    level: config.logger.level,
    format: config.logger.format,
    nodeEnv: loaded.nodeEnv,
    name,
    destination: logDestination ?? (isStdio ? 2 : 1),
  });

  const core = await prepareCore({ data, config, pkg, cwd: loadOpts.cwd ?? process.cwd(), logger, name });
  const live = new LiveServers();
  const eventStore = data.eventStore ?? new InMemoryEventStore();
  let shuttingDown = false;
  let stopped = false;
  let stopping: Promise<ShutdownOutcome> | undefined;

  let http: RunningHttpServer | undefined;
  let stdio: ReturnType<typeof startStdio> | undefined;
  if (isStdio) {
    stdio = startStdio({
      factory: { core, live },
      ...(stdin ? { stdin } : {}),
      ...(stdout ? { stdout } : {}),
      onerror: (err) => logger.warn({ err }, 'stdio transport error'),
    });
    logger.info({ transport: 'stdio' }, `${name} ready on stdio`);
  } else {
    http = await startHttpServer({
      core,
      live,
      eventStore,
      host: config.webServer.host,
      port: config.webServer.port,
      trustProxy: config.webServer.trustProxy,
      stateless: config.mcp.stateless,
      legacySse: config.mcp.legacySse,
      responseMode: config.mcp.responseMode,
      mapErrorStatus: config.mcp.httpErrorStatus,
      maxPayloadBytes: config.mcp.limits.maxPayloadBytes,
      sessions: config.mcp.sessions,
      hostValidation: config.webServer.hostValidation,
      allowedOrigins: config.webServer.allowedOrigins,
      readinessChecks: () => data.readinessChecks ?? [],
      isShuttingDown: () => shuttingDown,
      startedAt: Date.now(),
    });
    logger.info({ url: http.url, stateless: config.mcp.stateless }, `${name} listening on ${http.url}`);
  }

  const onSignal = (signal: NodeJS.Signals) => {
    void handle.stop(signal).then((outcome) => process.exit(outcome.drained ? 0 : 1));
  };
  if (handleSignals) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }

  const handle: McpServerHandle = {
    config,
    logger,
    core,
    notifyResourceUpdated: (uri) => live.resourceUpdated(uri),
    notifyListChanged: (kind) => live.listChanged(kind),
    get stopped() {
      return stopped;
    },
    stop(reason = 'stop() called') {
      if (stopping) return stopping;
      shuttingDown = true;
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      stopping = runShutdown(
        {
          logger,
          graceMs: config.webServer.shutdownGraceMs,
          stopAccepting: async () => {
            await http?.stopAccepting();
          },
          inFlight: () => http?.inFlight() ?? 0,
          closers: [
            ...(http ? [{ name: 'http', close: () => http.close() }] : []),
            ...(stdio ? [{ name: 'stdio', close: () => stdio.close() }] : []),
          ],
        },
        reason,
      ).then((outcome) => {
        stopped = true;
        return outcome;
      });
      return stopping;
    },
  };
  if (http) {
    handle.http = http;
    handle.url = http.url;
    handle.port = Number(new URL(http.url).port);
  }
  return handle;
}
