/**
 * fa-mcp-sdk public API. Every name exported here is listed in
 * FA-MCP-SDK-DOC/11-public-contract.md; renaming one is a breaking change.
 */
export { initMcpServer } from './init-entry.js';
export type { InitOptions, McpServerData, McpServerHandle } from './init-mcp-server.js';
export { getTools, notifyResourceUpdated, getTaskStore, resetTaskStore } from './running-servers.js';
export * from './core/errors.js';
export { createJsonRpcErrorResponse, toWireError, type WireErrorInfo } from './core/error-mapping.js';
export * from './core/results.js';
export * from './core/types.js';
export type { RequestContext, AuthInfo, ProtocolEra, TransportKind, TraceContext } from './core/request-context.js';
export type { McpMethod, Operation, OperationTarget, OperationTargetKind, PipelineStep, Next } from './core/pipeline.js';
export type { ToolHandler } from './core/tool-executor.js';
export type { ICapabilitiesOptions, ListKind } from './core/declared-capabilities.js';
export { TOOL_NAME_PATTERN } from './core/tool-name.js';
export { TRUNCATION_MARKER } from './core/steps/cap-result.js';
export { loadConfig, ConfigError, maskConfig, renderConfigReference, type LoadConfigOptions, type LoadedConfig } from './config/index.js';
export { renderConfigYaml, type RenderConfigYamlOptions } from './config/index.js';
export { configSchema, type AppConfig, type SchemaNode } from './config/schema.js';
export { InMemoryEventStore, type IEventStore, type InMemoryEventStoreOptions } from './state/event-store-memory.js';
export { PostgresEventStore, EVENT_MIGRATIONS, type PostgresEventStoreOptions } from './state/event-store-postgres.js';
export type { IResourceStore, IResourceStoreOptions, IStoredResource } from './state/resource-store.js';
export { InMemoryResourceStore } from './state/resource-store-memory.js';
export { PostgresResourceStore, RESOURCE_MIGRATIONS } from './state/resource-store-postgres.js';
export { MintedResources, type MintResourceInput } from './state/minted-resources.js';
export { mintResource } from './state/minted-scope.js';
export { RATE_LIMIT_MIGRATIONS } from './state/rate-limit-migrations.js';
export type { ReadinessCheck } from './ops/health.js';
export { maskSecrets } from './config/mask.js';
export { maskSensitive, MASK_PATTERNS, type IMaskRules, type MaskPatternName } from './ops/mask-sensitive.js';
export { ServerMetrics, KNOWN_METHODS, type RequestOutcome, type TaskCounts } from './ops/metrics.js';
export { AUTH_FAILURE_REASONS, type Telemetry, type ToolOutcome, type ToolCallRecord } from './core/telemetry.js';
export { DEBUG_CHANNELS, type DebugChannel } from './ops/debug-channel-names.js';
export { DEBUG_TOOL_NAME, DEBUG_SHAPES, createDebugTool, type DebugShape } from './ops/debug-tools.js';
export type { TraceEvent } from './ops/trace-sink.js';
export { jwksReadinessCheck } from './ops/jwks-check.js';
export type { AccessPoints, ServiceAddress } from './ops/consul/access-points.js';
export type { IRestApi, IRestRoute, IRestRequest, IRestResponseDoc, RestMethod } from './rest/types.js';
export type { Logger } from './ops/logger.js';
export { assembleInstructions, InstructionsBudgetError, type IInstructionsParts, type IInstructionsIndexEntry } from './core/instructions.js';
export type { IIconFile } from './core/icons.js';
export { deprecationMarker } from './core/deprecation.js';
export * from './apps/index.js';
export * from './skills/index.js';
export * from './agent-tester/index.js';
export * from './db/index.js';
// Authentication and access control (FA-MCP-SDK-DOC/04-authentication.md, 05-ad-authorization.md)
export { createAuthMW } from './auth/create-auth-mw.js';
export { getRequestAuth, type AuthenticatedRequest } from './auth/request-auth.js';
export type { HttpHandler, HttpNext, HttpRequest, HttpResponse, HttpRouter } from './core/http-types.js';
export { AuthError, type AuthErrorKind } from './core/auth-error.js';
export { canAccess, assertAccess } from './core/access-check.js';
export { generateToken, type GenerateTokenOptions } from './auth/generate-token.js';
export type { MintInput, MintedToken } from './auth/jwt-signer.js';
export type { AuthRuntime } from './auth/auth-runtime.js';
export type { AuthMWOptions } from './auth/http-guard.js';
export type { CustomAuthValidator, AuthRequestInfo, Credentials, RevocationCheck, Verifier } from './auth/types.js';
export { LdapGroupResolver, type LdapOptions } from './auth/ldap-groups.js';
export type { AuthConfig, OAuthClientConfig } from './config/sections/auth-config.js';
export {
  isTerminalTaskStatus, TaskLimitError, toTaskDto,
  type ITaskCaller, type ITaskCreateInput, type ITaskRecord, type ITaskRelease, type ITaskStore, type ITaskStoreOptions, type TaskPage, type TTaskPatch, type TTaskStatus,
} from './tasks/task-types.js';
export { InMemoryTaskStore } from './tasks/task-store-memory.js';
export { PostgresTaskStore, TASK_MIGRATIONS } from './tasks/task-store-postgres.js';
export { callerOf, MAX_TASK_ATTEMPTS, TaskManager, type BegunTask, type TaskStart } from './tasks/task-manager.js';
export { TaskInputs, TaskInputError, type ITaskInputRequest, type TaskAnswerOutcome } from './tasks/task-inputs.js';
export { TASKS_EXTENSION_ID } from './core/steps/task-support.js';
export type { TaskRuntime } from './tasks/task-runtime.js';
export type {
  AttemptRecord, IWebhookOutbox, IWebhookSender, IWebhookSendOptions, IWebhookSendResult, NewWebhookDelivery, WebhookDelivery, WebhookDeliveryStatus,
} from './webhooks/webhook-types.js';
export type { WebhookRuntime } from './webhooks/webhook-runtime.js';
export type { WebhookEndpointConfig, WebhooksConfig } from './config/sections/webhooks.js';
export { InMemoryWebhookOutbox } from './webhooks/outbox-memory.js';
export { PostgresWebhookOutbox, WEBHOOK_MIGRATIONS } from './webhooks/outbox-postgres.js';
export { InMemoryNotificationBus, type INotificationBus, type BusListener } from './state/notification-bus.js';
export { PostgresNotificationBus } from './state/notification-bus-postgres.js';
export { runMigrations, type Migration } from './state/pg-migrations.js';
