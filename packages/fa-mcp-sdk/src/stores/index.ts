/**
 * `fa-mcp-sdk/stores`: the built-in implementations of the state contracts the main entry exports
 * (`ITaskStore`, `IEventStore`, `IResourceStore`, `IWebhookOutbox`, `INotificationBus`, `IMcpEventsStore`), in memory
 * and on PostgreSQL, with the PostgreSQL migrations. `initMcpServer` builds them from the
 * configuration; construct one yourself to pass it in `McpServerData` (`taskStore`, `eventStore`,
 * `resourceStore`, `webhookOutbox`, `notificationBus`, `eventsStore`).
 */
export { InMemoryTaskStore } from '../tasks/task-store-memory.js';
export { PostgresTaskStore, TASK_MIGRATIONS } from '../tasks/task-store-postgres.js';
export { InMemoryEventStore, type InMemoryEventStoreOptions } from '../state/event-store-memory.js';
export { PostgresEventStore, EVENT_MIGRATIONS, type PostgresEventStoreOptions } from '../state/event-store-postgres.js';
export { InMemoryResourceStore } from '../state/resource-store-memory.js';
export { PostgresResourceStore, RESOURCE_MIGRATIONS } from '../state/resource-store-postgres.js';
export { InMemoryWebhookOutbox } from '../webhooks/outbox-memory.js';
export { PostgresWebhookOutbox, WEBHOOK_MIGRATIONS } from '../webhooks/outbox-postgres.js';
export { InMemoryMcpEventsStore } from '../events/events-store-memory.js';
export { PostgresMcpEventsStore, MCP_EVENTS_MIGRATIONS } from '../events/events-store-postgres.js';
export { InMemoryNotificationBus } from '../state/notification-bus.js';
export { PostgresNotificationBus } from '../state/notification-bus-postgres.js';
export { RATE_LIMIT_MIGRATIONS } from '../state/rate-limit-migrations.js';
export { runMigrations, type Migration } from '../state/pg-migrations.js';
