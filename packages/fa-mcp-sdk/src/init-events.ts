/**
 * The Events extension of a server being started: built when `McpServerData.events` declares
 * event types (loaded only then), on `mcp.events` and the server's databases and notification
 * bus. Its own module so initMcpServer wires it in a few lines.
 */
import type { AppConfig } from './config/schema.js';
import type { Databases } from './db/databases.js';
import type { EventsRuntime } from './events/events-runtime.js';
import type { Logger } from './ops/logger.js';
import type { ServerMetrics } from './ops/metrics.js';
import type { INotificationBus } from './state/notification-bus.js';
import type { McpServerData } from './server-data.js';

export interface StartEventsInput {
  data: McpServerData;
  config: AppConfig;
  nodeEnv: string;
  databases: Databases;
  bus: INotificationBus;
  logger: Logger;
  metrics?: ServerMetrics;
  name: string;
  userAgent: string;
}

export async function startEvents(input: StartEventsInput): Promise<EventsRuntime | undefined> {
  const { data, config } = input;
  if (!data.events || data.events.length === 0) return undefined;
  const { createEventsRuntime } = await import('./events/events-runtime.js');
  return createEventsRuntime({
    types: data.events,
    config: config.mcp.events,
    webhooks: config.webhooks,
    nodeEnv: input.nodeEnv,
    logger: input.logger.child({ component: 'events' }),
    pool: () => input.databases.get(config.mcp.events.database).pool(),
    ...(data.eventsStore ? { store: data.eventsStore } : {}),
    bus: input.bus,
    identity: input.name,
    ...(input.metrics ? { registry: input.metrics.registry } : {}),
    userAgent: input.userAgent,
  });
}
