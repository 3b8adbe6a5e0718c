/**
 * McpServerData: what a server author hands to initMcpServer (tools, prompts, resources, steps,
 * stores of their own). Its own module so that what builds the server from it (prepare-core.ts)
 * names it without importing init-mcp-server.ts, which imports the builder (no import cycle).
 */
import type { CustomAuthValidator, RevocationCheck } from './auth/types.js';
import type { ICapabilitiesOptions } from './core/declared-capabilities.js';
import type { IIconFile } from './core/icons.js';
import type { IInstructionsParts } from './core/instructions.js';
import type { PipelineStep } from './core/pipeline.js';
import type { ToolHandler } from './core/tool-executor.js';
import type { IIcon, IPromptData, IResourceTemplateInfo, IServerInfo, TResourcesSource, TToolsSource } from './core/types.js';
import type { ReadinessCheck } from './ops/health.js';
import type { IRestApi } from './rest/types.js';
import type { ISkillsOptions } from './skills/prepare-skills.js';
import type { IEventStore } from './state/event-store-memory.js';
import type { INotificationBus } from './state/notification-bus.js';
import type { IResourceStore } from './state/resource-store.js';
import type { ITaskStore } from './tasks/task-types.js';
import type { IWebhookOutbox } from './webhooks/webhook-types.js';
import type { IEventTypeData } from './events/event-types.js';
import type { IMcpEventsStore } from './events/events-store.js';

export interface McpServerData {
  /** The tools: an array (checked at start) or a function resolved per request. */
  tools?: TToolsSource;
  /** Handles every tool that has no handler of its own. */
  toolHandler?: ToolHandler;
  prompts?: IPromptData[];
  /** The resources: an array (checked at start) or a function resolved per request (the caller, the session). */
  resources?: TResourcesSource;
  resourceTemplates?: IResourceTemplateInfo[];
  /** Skills served from a folder (`skills/<name>/SKILL.md` + `references/`): the folder, or options. */
  skills?: string | ISkillsOptions;
  /** name, version (default: package.json), title, description, websiteUrl, icons (files become data: URIs). */
  serverInfo?: Omit<IServerInfo, 'icons'> & { icons?: Array<IIcon | IIconFile> };
  /**
   * What the server does beyond serving its lists: handlers that log to the client, lists that
   * change, resource updates. Declared at initialize and server/discover; `mcp.capabilities` overrides.
   */
  capabilities?: ICapabilitiesOptions;
  /** Plain text, or parts assembled under `mcp.instructions.budget`. */
  instructions?: string | IInstructionsParts;
  /** Text of the standard `agent_brief` prompt and `<name>://agent/brief` resource. */
  agentBrief?: string;
  /** Text of the standard `agent_prompt` prompt and `<name>://agent/prompt` resource. */
  agentPrompt?: string;
  /** What `use://auth` tells clients about authentication (no secrets); by default described from `webServer.auth`. */
  authDescription?: () => Record<string, unknown>;
  /** Your own credential check, tried when the configured schemes do not accept a request. */
  customAuthValidator?: CustomAuthValidator;
  /** A dynamic revocation check (revoked users in a database), run for every authenticated request. */
  isAuthRevoked?: RevocationCheck;
  /** Consumer pipeline steps (audit, caching, tenancy), run before tool execution. */
  steps?: PipelineStep[];
  /** Named readiness checks for /ready (databases, upstream APIs). */
  readinessChecks?: ReadinessCheck[];
  /** REST routes served next to MCP under `webServer.rest.basePath`, documented at /openapi.json and /docs. */
  rest?: IRestApi;
  /** Resumability event store for 2025-era SSE streams (replaces `mcp.resumability.store`). */
  eventStore?: IEventStore;
  /** The bus that carries resource updates and list changes between instances (replaces `mcp.notifications.bus`). */
  notificationBus?: INotificationBus;
  /** Where minted resources live (replaces `mcp.mintedResources.store`). */
  resourceStore?: IResourceStore;
  /** A task store of your own (replaces `mcp.tasks.store`). */
  taskStore?: ITaskStore;
  /** A webhook outbox of your own (replaces `webhooks.store`). */
  webhookOutbox?: IWebhookOutbox;
  /**
   * Event types clients subscribe to (the MCP Events extension, 2026-07-28): poll, push and
   * signed webhooks; emitted with `handle.events.emit()` or a handler's `params.events.emit()`.
   */
  events?: IEventTypeData[];
  /** An events store of your own (replaces `mcp.events.store`). */
  eventsStore?: IMcpEventsStore;
}
