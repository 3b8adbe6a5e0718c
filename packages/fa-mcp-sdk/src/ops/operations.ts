/**
 * The operations side of one server, as initMcpServer drives it: telemetry
 * before the core is built, routes (metrics, REST, OpenAPI) while the HTTP app
 * is assembled, Consul and the separate metrics listener once the server
 * listens, deregistration as soon as shutdown starts, and closing at the end.
 */
import type { Express, RequestHandler } from 'express';
import type { AppConfig } from '../config/schema.js';
import type { Core, CoreLogger } from '../core/core.js';
import type { IRestApi } from '../rest/types.js';
import { AccessPoints } from './consul/access-points.js';
import { createConsulClient } from './consul/consul-client.js';
import { ConsulRegistration } from './consul/consul-registration.js';
import { serviceDefinition } from './consul/service-definition.js';
import type { ReadinessCheck } from './health.js';
import { jwksReadinessCheck } from './jwks-check.js';
import type { MetricsListener } from './metrics-route.js';
import { createServerTelemetry, type ServerTelemetry } from './telemetry.js';

export interface OperationsInput {
  config: AppConfig;
  logger: CoreLogger;
  serverName: string;
  sdkVersion: string;
}

/** What the HTTP server hands over while it assembles its routes. */
export interface RouteKit {
  app: Express;
  guard: RequestHandler;
  body: RequestHandler[];
  /** The authentication middleware for the consumer's routes, when authentication is on. */
  auth?: RequestHandler;
  /** The authentication of the OpenAPI document and page (the requirements of /mcp), when authentication is on. */
  docsAuth?: (optional: boolean) => RequestHandler;
}

export interface Operations {
  readonly server: ServerTelemetry;
  /** Other services through Consul (`consul.accessPoints`); undefined when Consul is off. */
  readonly accessPoints?: AccessPoints;
  readonly consul?: ConsulRegistration;
  /** The separate metrics listener's URL, when `webServer.metrics.separatePort`. */
  metricsUrl?: string;
  /** Mounts /metrics, the REST routes and the OpenAPI document. */
  mountRoutes(kit: RouteKit, core: Core, api: IRestApi | undefined): Promise<void>;
  /** Built-in readiness checks (JWKS, Consul) for /ready. */
  readinessChecks(): ReadinessCheck[];
  /** Starts what needs the listening port: Consul registration, the separate metrics listener. */
  started(info: { host: string; port?: number; core: Core; sessions?: () => number }): Promise<void>;
  /** Shutdown began: leave Consul first, so no load balancer sends new work. */
  stopping(): Promise<void>;
  close(): Promise<void>;
}

export async function createOperations(input: OperationsInput): Promise<Operations> {
  const { config, logger } = input;
  const server = await createServerTelemetry({ config, logger, serverName: input.serverName, sdkVersion: input.sdkVersion });
  const client = config.consul.enabled ? await createConsulClient(config.consul.agent) : undefined;
  const accessPoints = client ? new AccessPoints(client, config.consul.accessPoints, config.consul.cacheTtlMs) : undefined;
  let consul: ConsulRegistration | undefined;
  let listener: MetricsListener | undefined;
  const jwt = config.webServer.auth.jwtToken;
  const jwksUrl = config.webServer.auth.enabled && jwt.mode === 'remoteJwks' && jwt.jwksUrl ? jwt.jwksUrl : undefined;

  const ops: Operations = {
    server,
    ...(accessPoints ? { accessPoints } : {}),
    get consul() {
      return consul;
    },
    async mountRoutes(kit, core, api) {
      // HTTP only: loaded here, so a stdio server never loads express routes, js-yaml dumps or Swagger UI
      const [{ mountRest }, { metricsHandler }] = await Promise.all([import('../rest/mount.js'), import('./metrics-route.js')]);
      const m = config.webServer.metrics;
      // On the main port behind the Host/Origin guard (a DNS-rebinding page must not read it); the separate listener has none.
      if (server.metrics && !m.separatePort) kit.app.get(m.path, kit.guard, metricsHandler({ metrics: server.metrics, token: m.token }));
      await mountRest({
        app: kit.app,
        core,
        config,
        api,
        guard: kit.guard,
        body: kit.body,
        ...(kit.auth ? { auth: kit.auth } : {}),
        ...(kit.docsAuth ? { docsAuth: kit.docsAuth } : {}),
        ...(server.metrics ? { onAnswered: (route: string, method: string, status: number) => server.metrics?.restRequest(route, method, status) } : {}),
      });
    },
    readinessChecks() {
      return [...(jwksUrl ? [jwksReadinessCheck(jwksUrl, jwt.jwksTimeoutMs)] : []), ...(consul ? [consul.readinessCheck()] : [])];
    },
    async started(info) {
      if (server.metrics && info.sessions) server.metrics.addSessionSource('http-sessions', '2025', 'http', info.sessions);
      const m = config.webServer.metrics;
      if (server.metrics && m.separatePort) {
        const { startMetricsListener } = await import('./metrics-route.js');
        listener = await startMetricsListener({ metrics: server.metrics, path: m.path, token: m.token, host: config.webServer.host, port: m.port });
        ops.metricsUrl = listener.url;
        logger.info({ url: listener.url }, 'metrics listening');
      }
      if (client && info.port !== undefined) {
        const definition = serviceDefinition({
          consul: config.consul,
          serverName: input.serverName,
          version: info.core.serverInfo.version,
          sdkVersion: input.sdkVersion,
          listenHost: info.host,
          listenPort: info.port,
        });
        consul = new ConsulRegistration({ client, definition, intervalMs: config.consul.reregisterIntervalMs, logger, debug: server.debug.handshake });
        await consul.start();
      } else if (client) {
        logger.warn('consul.enabled is set but the server has no HTTP port (stdio): not registering');
      }
    },
    async stopping() {
      await consul?.stop();
    },
    async close() {
      await consul?.stop();
      await listener?.close();
      await server.close();
      client?.destroy();
    },
  };
  return ops;
}
