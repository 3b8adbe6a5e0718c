/**
 * McpServerHandle: what initMcpServer returns (config, core, transports, stores, stop()). Its
 * own module so that what works on a handle (running-servers.ts) names it without importing
 * init-mcp-server.ts, which registers every handle there (no import cycle).
 */
import type { AuthRuntime } from './auth/auth-runtime.js';
import type { AppConfig } from './config/schema.js';
import type { Core } from './core/core.js';
import type { IMcpSession } from './core/session-types.js';
import type { Databases } from './db/databases.js';
import type { AccessPoints } from './ops/consul/access-points.js';
import type { Logger } from './ops/logger.js';
import type { ServerMetrics } from './ops/metrics.js';
import type { ShutdownOutcome } from './ops/shutdown.js';
import type { TraceEvent } from './ops/trace-sink.js';
import type { StopOptions } from './server-stop.js';
import type { MintedResources } from './state/minted-resources.js';
import type { TaskRuntime } from './tasks/task-runtime.js';
import type { RunningHttpServer } from './transport/http/http-server.js';
import type { WebhookRuntime } from './webhooks/webhook-runtime.js';
import type { EventsHandle } from './events/events-runtime.js';

export interface McpServerHandle {
  config: AppConfig;
  logger: Logger;
  core: Core;
  /** The MCP endpoint URL on HTTP transports. */
  url?: string;
  port?: number;
  http?: RunningHttpServer;
  /** The server's Prometheus metrics (own registry); undefined when `webServer.metrics.enabled` is false. */
  metrics?: ServerMetrics;
  /** URL of the separate metrics listener (`webServer.metrics.separatePort`). */
  metricsUrl?: string;
  /** Addresses of other services through Consul (`consul.accessPoints`); undefined when Consul is off. */
  accessPoints?: AccessPoints;
  /** Writes an event of your own to the JSON-lines trace sink (`mcp.debug.logFile`); no-op when off. */
  emitTrace(event: TraceEvent): void;
  /**
   * Sends notifications/resources/updated to every connection subscribed to the URI, on this
   * instance and (through `mcp.notifications.bus`) on the others; resolves with how many
   * connections of this instance were notified. Rejects unless the server declares resources.subscribe.
   */
  notifyResourceUpdated(uri: string): Promise<number>;
  /** Sends notifications/<kind>/list_changed to every connection, on every instance on the bus; rejects unless the list declares listChanged. */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void>;
  /**
   * The 2025-era session `id` (a Streamable HTTP session, a legacy SSE stream, a stdio connection):
   * the handle handlers get as `params.session`, for background work that holds only the id. With
   * `mcp.sessions.store: postgres`, a session any instance serves; undefined when there is none.
   */
  session(id: string): Promise<IMcpSession | undefined>;
  /** Minted resources (`mcp.mintedResources.enabled`): `mint()` outside tool handlers, and the store. */
  mintedResources?: MintedResources;
  /**
   * Graceful stop: stop accepting, let in-flight requests finish within `webServer.shutdownGraceMs`,
   * then close. With `{ drain: true }` (what SIGTERM does) /ready answers 503 and everything is still
   * served for `webServer.shutdown.drainMs` first.
   */
  stop(reason?: string, opts?: StopOptions): Promise<ShutdownOutcome>;
  readonly stopped: boolean;
  /** The databases of `db.postgres.dbs` (pools open on first use, closed by stop()). */
  db: Databases;
  /** Authentication: `createAuthMW()` for your routes, the token minter, the authenticator. */
  auth: AuthRuntime;
  /** Tasks (`mcp.tasks.enabled`): the manager and its store; undefined when off. */
  tasks?: TaskRuntime;
  /** Outbound webhooks (when `webhooks.endpoints` is not empty): the outbox, dead events listed and re-sent. */
  webhooks?: WebhookRuntime;
  /**
   * The server's event types (when `McpServerData.events` declares some): `emit(name, payload,
   * { eventId })` from anywhere (a REST route, a background job), resolving once stored.
   */
  events?: EventsHandle;
}
