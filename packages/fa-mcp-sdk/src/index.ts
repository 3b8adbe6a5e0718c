/**
 * fa-mcp-sdk public API: what a server author uses. An explicit list (no `export *`): every name
 * here is listed in FA-MCP-SDK-DOC/11-public-contract.md, and renaming one is a breaking change.
 * Tools for other jobs live on subpaths: `fa-mcp-sdk/testing`, `/db`, `/stores`, `/agent-tester`.
 */

// Starting a server, and the servers this process runs
export { initMcpServer } from './init-entry.js';
export type { InitOptions, McpServerData, McpServerHandle } from './init-mcp-server.js';
export { getTools, notifyResourceUpdated, getTaskStore, resetTaskStore } from './running-servers.js';
export type { ICapabilitiesOptions, ListKind } from './core/declared-capabilities.js';
export type { IIconFile } from './core/icons.js';
export { assembleInstructions, InstructionsBudgetError, type IInstructionsParts, type IInstructionsIndexEntry } from './core/instructions.js';

// Tools, prompts and resources
export type {
  ICompletionContext,
  IAccessRequirements,
  IAudioContent,
  ICacheHint,
  IClientChannel,
  IClientInputOptions,
  IContentBlock,
  IDeprecation,
  IEmbeddedResourceContent,
  IIcon,
  IImageContent,
  IMcpSession,
  IPromptArgument,
  IPromptData,
  IPromptMessage,
  IPromptResult,
  IResourceContents,
  IResourceData,
  IResourceDescription,
  IResourceLinkContent,
  IResourceTemplateInfo,
  IServerInfo,
  ISessionResource,
  ISessionResources,
  ITextContent,
  ITool,
  IToolAnnotations,
  IToolHandlerParams,
  IToolHandlerStructuredResponse,
  IToolHandlerTextResponse,
  IToolInputSchema,
  JsonObject,
  LogLevel,
  TResourceContent,
  TResourcesSource,
  TToolHandlerResponse,
  TToolsSource,
} from './core/types.js';
export type { ToolHandler } from './core/tool-executor.js';
export { MCP_TOOL_NAME_PATTERN, TOOL_NAME_PATTERN } from './core/tool-name.js';
export { TRUNCATION_MARKER } from './core/steps/cap-result.js';
export { deprecationMarker } from './core/deprecation.js';

// Results
export {
  audioContent,
  embeddedResourceContent,
  formatContentResult,
  formatToolError,
  formatToolResult,
  getJsonFromResult,
  imageContent,
  jsonContent,
  resourceLinkContent,
  textContent,
} from './core/results.js';

// MCP Apps
export {
  APP_EXTENSION_ID,
  APP_MIME_TYPE,
  APP_RESOURCE_URI_META_KEY,
  appTool,
  appView,
  AppViewError,
  getAppCapability,
  supportsApps,
  type AppToolVisibility,
  type IAppClientCapability,
  type IAppToolOptions,
  type IAppView,
  type IAppViewCsp,
  type IAppViewOptions,
  type IAppViewPermissions,
} from './apps/index.js';

// Skills
export { SKILLS_EXTENSION_ID, SkillError, type ISkillsOptions } from './skills/index.js';

// Pipeline and request context
export type { RequestContext, AuthInfo, ProtocolEra, TransportKind, TraceContext } from './core/request-context.js';
export type { McpMethod, Operation, OperationTarget, OperationTargetKind, PipelineStep, Next } from './core/pipeline.js';

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

// Errors
export {
  BaseMcpError,
  ConflictError,
  ForbiddenError,
  InternalError,
  MCP_ERROR_CODES,
  MethodNotFoundError,
  MissingClientCapabilityError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestCancelledError,
  ResourceNotFoundError,
  ServerError,
  TimeoutError,
  ToolExecutionError,
  UpstreamUnavailableError,
  ValidationError,
  type IMcpErrorData,
  type McpErrorCode,
} from './core/errors.js';
export { createJsonRpcErrorResponse, toWireError, type WireErrorInfo } from './core/error-mapping.js';

// Configuration and operations
export { loadConfig, ConfigError, maskConfig, renderConfigReference, type LoadConfigOptions, type LoadedConfig } from './config/index.js';
export { renderConfigYaml, type RenderConfigYamlOptions } from './config/index.js';
export { configSchema, type AppConfig, type SchemaNode } from './config/schema.js';
export { maskSecrets } from './config/mask.js';
export { maskSensitive, MASK_PATTERNS, type IMaskRules, type MaskPatternName } from './ops/mask-sensitive.js';
export type { Logger } from './ops/logger.js';
export type { ReadinessCheck } from './ops/health.js';
export type { ServerMetrics } from './ops/metrics.js';
export type { TraceEvent } from './ops/trace-sink.js';
export type { AccessPoints, ServiceAddress } from './ops/consul/access-points.js';
export type { IRestApi, IRestRoute, IRestRequest, IRestResponseDoc, RestMethod } from './rest/types.js';

// Tasks and shared state: the contracts (the built-in stores are on `fa-mcp-sdk/stores`; the two
// in-memory defaults are here too, as the Key Exports of specification seed 001 name them)
export {
  isTerminalTaskStatus,
  toTaskDto,
  TaskLimitError,
  type ITaskCaller,
  type ITaskCreateInput,
  type ITaskRecord,
  type ITaskRelease,
  type ITaskStore,
  type ITaskStoreOptions,
  type TaskPage,
  type TTaskPatch,
  type TTaskStatus,
} from './tasks/task-types.js';
export { TaskInputError } from './tasks/task-inputs.js';
export { TASKS_EXTENSION_ID } from './core/steps/task-support.js';
export type { TaskRuntime } from './tasks/task-runtime.js';
export { InMemoryTaskStore } from './tasks/task-store-memory.js';
export { InMemoryEventStore, type IEventStore } from './state/event-store-memory.js';
export type { INotificationBus, BusListener } from './state/notification-bus.js';
export type { IResourceStore, IResourceStoreOptions, IStoredResource } from './state/resource-store.js';
export type { MintedResources, MintResourceInput } from './state/minted-resources.js';
export { mintResource } from './state/minted-scope.js';

// Outbound webhooks
export type {
  AttemptRecord, IWebhookOutbox, IWebhookSender, IWebhookSendOptions, IWebhookSendResult, NewWebhookDelivery, WebhookDelivery, WebhookDeliveryStatus,
} from './webhooks/webhook-types.js';
export type { WebhookRuntime } from './webhooks/webhook-runtime.js';
export type { WebhookEndpointConfig, WebhooksConfig } from './config/sections/webhooks.js';

// MCP Events (io.modelcontextprotocol/events): event types, emit, the store
export type { IEventMatchContext, IEventTypeData, TEventDeliveryMode } from './events/event-types.js';
export type { IEventEmitOptions, IEventEmitResult, IEventEmitter } from './core/event-port.js';
export type { EventsHandle } from './events/events-runtime.js';
export type { AppendOutcome, EventFanout, EventSubscription, IMcpEventsStore, NewOccurrence, StoredOccurrence, SubscriberAuth } from './events/events-store.js';
export type { EventsConfig } from './config/sections/events.js';
export { EVENTS_EXTENSION_ID } from './events/events-id.js';
export { EVENTS_ERROR_CODES } from './events/events-errors.js';

// Audit trail
export type {
  AuditArguments, AuditOutcome, AuditOutcomeStatus, AuditPrincipal, AuditRecord, AuditRecordKind, AuditSignature, AuditTarget, AuditTaskInfo, AuditTaskStatus,
} from './audit/audit-record.js';
export type { AuditArgumentsMode, AuditConfig, AuditMode, AuditSinkKind } from './config/sections/audit.js';
export type { IAuditFields } from './core/audit-fields.js';
