/**
 * initMcpServer: loads configuration, builds the core once, starts the
 * configured transport, and returns a handle that stops it gracefully.
 */
import type { Readable, Writable } from 'node:stream';
import { loadConfig, type LoadConfigOptions } from './config/index.js';
import type { AppConfig } from './config/schema.js';
import { assertNotifiable } from './core/declared-capabilities.js';
import { createLogger } from './ops/logger.js';
import { readPackageInfo } from './ops/package-info.js';
import type { ShutdownOutcome } from './ops/shutdown.js';
import { createServerStopper, type ServerStopper } from './server-stop.js';
import { prepareCore, sdkVersion } from './prepare-core.js';
import { createOperations } from './ops/operations.js';
import { createAuthRuntime } from './auth/auth-runtime.js';
import { createServerDatabases } from './db/server-databases.js';
import { startAudit } from './audit-start.js';
import { LiveServers } from './protocol/live-servers.js';
import type { ModernEraOptions } from './protocol/modern-era.js';
import { createStateRuntime, stateInstances } from './state/state-runtime.js';
import { createFailureLimiters } from './state/rate-limiters.js';
import { createUsedAssertionIds } from './state/assertion-id-store.js';
import { acceptsIdJag } from './auth/oauth-paths.js';
import { Databases } from './db/databases.js';
import type { RunningHttpServer } from './transport/http/http-server.js';
import { metricsExposureWarning } from './ops/metrics-exposure.js';
import { sharedInstancesReason } from './config/shared-instances.js';
import { prepareAgentTester } from './agent-tester/mount.js';
import { startStdio } from './transport/stdio.js';
import { stopAtEndOfInput } from './stdio-end.js';
import { createTaskRuntime } from './tasks/task-runtime.js';
import { trackRunningServer } from './running-servers.js';
import { taskEventHook } from './webhooks/task-events.js';
import { startEvents } from './init-events.js';
import type { McpServerData } from './server-data.js';
import type { McpServerHandle } from './server-handle.js';

export type { McpServerData } from './server-data.js';
export type { McpServerHandle } from './server-handle.js';

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

/** The counters of `webServer.auth.failureThrottle`, on the store of `mcp.rateLimit`, when something authenticates. */
async function authFailureLimiters(config: AppConfig, databases: Databases) {
  const { auth } = config.webServer;
  if (!auth.failureThrottle.enabled || (!auth.enabled && auth.jwtToken.mode !== 'embedded')) return undefined;
  const rl = config.mcp.rateLimit;
  const pool = rl.store === 'postgres' ? await databases.get(rl.database).pool() : undefined;
  return createFailureLimiters(auth.failureThrottle, pool);
}

/** Where the `jti` of each ID-JAG is used once: the store of `mcp.rateLimit` too (memory, or PostgreSQL shared by instances). */
async function usedAssertionIds(config: AppConfig, databases: Databases) {
  if (!acceptsIdJag(config.webServer.auth) || config.mcp.transportType !== 'http') return undefined;
  const rl = config.mcp.rateLimit;
  return createUsedAssertionIds(rl.store === 'postgres' ? await databases.get(rl.database).pool() : undefined);
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

  // Built first: the postgres rate-limit store (tool calls, failed logins) and the state stores need a pool at start.
  const databases = new Databases({ config: config.db, logger, cwd: loadOpts.cwd ?? process.cwd() });
  const failedStart = async (err: unknown, closeFirst?: () => Promise<void>): Promise<never> => {
    await closeFirst?.();
    await databases.close();
    throw err;
  };
  const failureLimiters = await authFailureLimiters(config, databases).catch(failedStart);
  const assertionIds = await usedAssertionIds(config, databases).catch(failedStart);
  const auth = await createAuthRuntime({
    config,
    name,
    nodeEnv: loaded.nodeEnv,
    logger,
    ...(data.customAuthValidator ? { customAuthValidator: data.customAuthValidator } : {}),
    ...(data.isAuthRevoked ? { isRevoked: data.isAuthRevoked } : {}),
    // Called at request time, when the core below exists.
    onFailure: (reason, detail) => core.telemetry.authFailure(reason, detail),
    ...(failureLimiters ? { failureLimiters } : {}),
    ...(assertionIds ? { usedAssertionIds: assertionIds } : {}),
  }).catch(failedStart);
  const ops = await createOperations({ config, logger, serverName: name, sdkVersion: sdkVersion() });
  // The audit trail (mcp.audit): fed by every request's observation, the HTTP front's refusals and task changes.
  const audit = await startAudit({ config, logger, databases, cwd: loadOpts.cwd ?? process.cwd(), ...(ops.server.metrics ? { registry: ops.server.metrics.registry } : {}) }).catch(failedStart);
  ops.server.useAudit(audit.trail);
  const state = await createStateRuntime({ config: config.mcp, databases, logger, serverName: name, ...stateInstances(data) }).catch(failedStart);
  // HTTP, webhooks: loaded when configured, so a stdio server starts without express and its kin (issue 24)
  const webhooks = config.webhooks.endpoints.length > 0
    ? await (await import('./webhooks/webhook-runtime.js')).createWebhookRuntime({
        config: config.webhooks,
        nodeEnv: loaded.nodeEnv,
        ...(loadOpts.env ? { env: loadOpts.env } : {}),
        pool: () => databases.get(config.webhooks.database).pool(),
        logger: logger.child({ component: 'webhooks' }),
        ...(ops.server.metrics ? { registry: ops.server.metrics.registry } : {}),
        ...(data.webhookOutbox ? { outbox: data.webhookOutbox } : {}),
        userAgent: `${name} (fa-mcp-sdk ${sdkVersion()})`,
      }).catch((err: unknown) => failedStart(err, () => state.close()))
    : undefined;
  // The Events extension, when event types are declared (init-events.ts).
  const events = await startEvents({ data, config, nodeEnv: loaded.nodeEnv, databases, bus: state.bus, logger, ...(ops.server.metrics ? { metrics: ops.server.metrics } : {}), name, userAgent: `${name} (fa-mcp-sdk ${sdkVersion()})` })
    .catch((err: unknown) => failedStart(err, async () => {
      await webhooks?.close();
      await state.close();
    }));
  const core = await prepareCore({
    data: state.minted ? { ...data, resourceTemplates: [...(data.resourceTemplates ?? []), state.minted.template()] } : data,
    databases,
    config,
    pkg,
    cwd: loadOpts.cwd ?? process.cwd(),
    logger,
    name,
    describeAuth: () => auth.describe(isStdio ? 'stdio' : 'http'),
    telemetry: ops.server,
    nodeEnv: loaded.nodeEnv,
    ...(webhooks ? { webhooks: webhooks.sender } : {}),
    ...(events ? { events } : {}),
    ...(audit.gate ? { gateSteps: [audit.gate] } : {}),
  }).catch((err: unknown) => failedStart(err, async () => {
    await events?.close();
    await webhooks?.close();
    await state.close();
    await audit.trail.close();
  }));
  state.attach(core.pipeline);
  const db = createServerDatabases({ pipeline: core.pipeline, databases, ambientScope: config.db.ambientScope });
  const tasks = config.mcp.tasks.enabled
    ? await createTaskRuntime({
        settings: config.mcp.tasks,
        core,
        logger,
        databases: db,
        ...(data.taskStore ? { store: data.taskStore } : {}),
        // One LISTEN connection per instance when both use PostgreSQL on the same database.
        ...(!data.notificationBus && config.mcp.notifications.bus === 'postgres' && config.mcp.notifications.database === config.mcp.tasks.database
          ? { sharedBus: state.bus }
          : {}),
        ...(webhooks && config.webhooks.taskEvents ? { onFinished: taskEventHook(webhooks.sender) } : {}),
        ...(audit.taskChanged ? { onChange: audit.taskChanged } : {}),
      })
    : undefined;
  if (tasks && ops.server.metrics) ops.server.metrics.observeTasks(() => tasks.store.countByStatus() as Promise<Record<string, number>>);
  const live = new LiveServers({
    declared: core.declared,
    served: (uri) => core.registry.resources.has(uri) || core.registry.findTemplate(uri) !== undefined,
    logger,
  });
  const changes = state.connectChanges({ resourceUpdated: (uri) => live.resourceUpdated(uri), listChanged: (kind) => live.listChanged(kind) });
  // The 2026-07-28 requestState codec is the SDK's: made where the SDK is loaded (HTTP below, stdio-sdk.ts).
  const modern: ModernEraOptions = { ...config.mcp, logger, sharedBecause: isStdio ? undefined : sharedInstancesReason(config, loaded.nodeEnv) };
  const eventStore = state.eventStore;
  let stopped = false;
  // The stopper is built once the transports run; /ready may ask before (never shutting down then).
  const stopping$: { stopper?: ServerStopper } = {};

  // Tool schemas deferred at start (core/registry.ts) compile once the first answers are out, and the
  // process metrics start then (ops/metrics.ts): neither is needed for those answers.
  const afterFirstAnswers = () => {
    ops.server.metrics?.startProcessMetrics();
    try {
      core.registry.compileSchemas();
    } catch (err) {
      logger.warn({ err }, 'a tool schema did not compile; its tool answers with the error when called');
    }
  };
  let afterFirstAnswersTimer: NodeJS.Timeout | undefined;
  let http: RunningHttpServer | undefined;
  let stdio: ReturnType<typeof startStdio> | undefined;
  // The client closed stdin: may come before the handle exists (a script's whole input arrives at once).
  let inputEnded: () => void = () => undefined;
  const endOfInput = new Promise<void>((resolve) => (inputEnded = resolve));
  if (isStdio) {
    const stdioAuth = await auth.stdioAuth(); // verified at start: a bad token stops it
    stdio = startStdio({
      modern,
      factory: { core, live, ...(stdioAuth ? { defaultAuth: stdioAuth } : {}), ...(tasks ? { tasks: tasks.manager } : {}) },
      ...(stdin ? { stdin } : {}),
      ...(stdout ? { stdout } : {}),
      onerror: (err) => logger.warn({ err }, 'stdio transport error'),
      lineGuard: { maxLineBytes: config.mcp.limits.maxPayloadBytes, maxJsonDepth: config.mcp.limits.maxJsonDepth },
      coldFront: config.mcp.fastPath,
      consoleToStderr: config.mcp.stdio.consoleToStderr,
      sdkStarted: afterFirstAnswers,
      inputEnded: () => inputEnded(),
    });
    // A stdio server no client talks to yet still starts them, a moment later.
    afterFirstAnswersTimer = setTimeout(afterFirstAnswers, 1000);
    afterFirstAnswersTimer.unref();
    logger.info({ transport: 'stdio' }, `${name} ready on stdio`);
  } else {
    const [{ startHttpServer }, { createHealthRouter }, { createModernEraSupport }] = await Promise.all([
      import('./transport/http/http-server.js'),
      import('./ops/health.js'),
      import('./protocol/modern-era.js'),
    ]);
    http = await startHttpServer({
      core,
      live,
      modern: createModernEraSupport(modern),
      ...(tasks ? { tasks: tasks.manager } : {}),
      eventStore,
      ...(state.sessions ? { sharedSessions: state.sessions } : {}),
      host: config.webServer.host,
      port: config.webServer.port,
      trustProxy: config.webServer.trustProxy,
      stateless: config.mcp.stateless,
      legacySse: config.mcp.legacySse,
      responseMode: config.mcp.responseMode,
      mapErrorStatus: config.mcp.httpErrorStatus,
      fastPath: config.mcp.fastPath,
      maxPayloadBytes: config.mcp.limits.maxPayloadBytes,
      maxJsonDepth: config.mcp.limits.maxJsonDepth,
      sessions: config.mcp.sessions,
      hostValidation: config.webServer.hostValidation,
      allowedOrigins: config.webServer.allowedOrigins,
      cors: config.webServer.cors,
      securityHeaders: config.webServer.securityHeaders,
      timeouts: config.webServer.timeouts,
      health: createHealthRouter({
        name: core.serverInfo.name,
        version: core.serverInfo.version,
        startedAt: Date.now(),
        checks: () => [...(data.readinessChecks ?? []), ...db.readinessChecks(), ...ops.readinessChecks(), ...(audit.readinessCheck ? [audit.readinessCheck] : [])],
        // Shutdown began (drain included): /ready answers 503 while everything is still served.
        isShuttingDown: () => stopping$.stopper?.shuttingDown ?? false,
      }),
      // REST routes sit behind the same authentication as /mcp; the OpenAPI document checks a caller as /mcp does.
      mountRoutes: (kit) => {
        const { requiredScopes, requiredGroups } = config.webServer.auth;
        const docsAuth = (optional: boolean) => auth.createAuthMW({ requiredScopes, requiredGroups, optional });
        return ops.mountRoutes({ ...kit, ...(auth.enabled ? { auth: auth.createAuthMW(), docsAuth } : {}) }, core, data.rest);
      },
      agentTester: await prepareAgentTester({ config, nodeEnv: loaded.nodeEnv, logger, serverName: name }),
      auth,
      ...(audit.refusal ? { unobserved: audit.refusal } : {}),
      errorRoutes: {
        ...(config.webServer.rest.enabled ? { restBasePath: config.webServer.rest.basePath } : {}),
        ...(config.webServer.auth.mintEndpoint.enabled ? { oauthPaths: [config.webServer.auth.mintEndpoint.path] } : {}),
      },
    });
    logger.info({ url: http.url, stateless: config.mcp.stateless }, `${name} listening on ${http.url}`);
    setImmediate(afterFirstAnswers);
    const metricsWarning = metricsExposureWarning(config, loaded.nodeEnv);
    if (metricsWarning) logger.warn({ path: config.webServer.metrics.path }, metricsWarning);
  }
  const sessions = http?.mcp.sessions;
  await ops.started({ host: config.webServer.host, ...(http ? { port: Number(new URL(http.url).port) } : {}), core, ...(sessions ? { sessions: () => sessions.size } : {}) });

  const stops = createServerStopper({
    config,
    logger,
    ops,
    ...(http ? { http } : {}),
    ...(stdio ? { stdio } : {}),
    ...(tasks ? { tasks } : {}),
    ...(events ? { events } : {}),
    closeLast: [
      ...(events ? [{ name: 'events', close: () => events.close() }] : []),
      ...(webhooks ? [{ name: 'webhooks', close: () => webhooks.close() }] : []),
      // After every request and task of this instance is recorded; writes the chain's final anchor.
      { name: 'audit', close: () => audit.trail.close() },
      { name: 'state', close: () => state.close() },
      { name: 'db', close: () => db.close() },
    ],
  });
  stopping$.stopper = stops;
  let stopping: Promise<ShutdownOutcome> | undefined;

  const handle: McpServerHandle = {
    config,
    logger,
    core,
    db,
    auth,
    ...(tasks ? { tasks } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(events ? { events: events.handle } : {}),
    ...(ops.server.metrics ? { metrics: ops.server.metrics } : {}),
    ...(ops.accessPoints ? { accessPoints: ops.accessPoints } : {}),
    emitTrace: (event) => ops.server.emitTrace(event),
    notifyResourceUpdated: async (uri) => {
      assertNotifiable(core.declared, 'resource');
      return changes.resourceUpdated(uri);
    },
    notifyListChanged: async (kind) => {
      assertNotifiable(core.declared, kind);
      return changes.listChanged(kind);
    },
    session: (id) => live.session(id),
    ...(state.minted ? { mintedResources: state.minted } : {}),
    get stopped() {
      return stopped;
    },
    stop(reason = 'stop() called', opts) {
      clearTimeout(afterFirstAnswersTimer);
      stopping ??= stops.stop(reason, opts).then((outcome) => {
        untrack();
        stopped = true;
        return outcome;
      });
      return stopping;
    },
  };
  // getTools(), notifyResourceUpdated(), getTaskStore() find it while it runs (running-servers.ts).
  const untrack = trackRunningServer(handle);
  if (handleSignals) stops.handleSignals((reason, opts) => handle.stop(reason, opts));
  if (stdio) void endOfInput.then(() => stopAtEndOfInput(handle, { exit: handleSignals && !stdin, stdout: stdout ?? process.stdout }));
  if (ops.metricsUrl) handle.metricsUrl = ops.metricsUrl;
  if (http) {
    handle.http = http;
    handle.url = http.url;
    handle.port = Number(new URL(http.url).port);
  }
  return handle;
}
