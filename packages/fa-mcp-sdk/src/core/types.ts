/**
 * Public data types of fa-mcp-sdk: what a consumer writes (tools, prompts,
 * resources) and what a handler receives. Plain JSON shapes, independent of the
 * MCP SDK, so the core never depends on the protocol layer.
 */
import type { IAuditFields } from './audit-fields.js';
import type { IClientChannel } from './client-channel-types.js';
import type { IEventEmitter } from './event-port.js';
import type { IAccessRequirements, IDeprecation, IIcon, IResourceContents, IResourceDescription, TResourceContent } from './item-types.js';
import type { ICacheHint } from './cache-hint.js';
import type { JsonObject } from './json-object.js';
import type { RequestContext } from './request-context.js';
import type { IMcpSession } from './session-types.js';
import type { IWebhookSender } from './webhook-sender.js';

export type { JsonObject } from './json-object.js';
export type { ICacheHint } from './cache-hint.js';
export type { IAccessRequirements, IDeprecation, IIcon, IResourceContents, IResourceDescription, TResourceContent } from './item-types.js';
export type { IClientChannel, IClientInputOptions, LogLevel } from './client-channel-types.js';
export type { IMcpSession, ISessionResource, ISessionResources } from './session-types.js';

export interface IToolInputSchema extends JsonObject {
  $schema?: string;
  type: 'object';
  properties?: Record<string, JsonObject>;
  required?: string[];
  additionalProperties?: boolean | JsonObject;
}

export interface IToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

export interface ITool extends IAccessRequirements {
  name: string;
  title?: string;
  description?: string;
  inputSchema: IToolInputSchema;
  outputSchema?: JsonObject;
  annotations?: IToolAnnotations;
  icons?: IIcon[];
  _meta?: JsonObject;
  execution?: {
    taskSupport?: 'optional' | 'required' | 'forbidden';
    /**
     * When a call under the 2026-07-28 tasks extension becomes a task: at the
     * call, before the handler runs (`call`, the default), or when the handler
     * calls `startTask()` (`handler`): input it asks for before then is
     * gathered in ordinary request rounds, and a handler that returns without
     * calling it answers synchronously. Not sent on the wire.
     */
    taskStart?: 'call' | 'handler';
    /**
     * The client capabilities every call of the tool needs, in the `ClientCapabilities`
     * shape: `{ sampling: {} }`, `{ elicitation: { form: {} } }` (an `elicitation` naming
     * no mode means form mode), `{ roots: {} }`. A call from a client that did not declare
     * them is refused before the handler runs and before any task is created: -32021,
     * `data.requiredCapabilities` naming only what is missing. Not sent on the wire.
     */
    requiredClientCapabilities?: { sampling?: JsonObject; elicitation?: { form?: JsonObject; url?: JsonObject }; roots?: JsonObject };
  };
  deprecated?: IDeprecation;
  /** Per-tool timeout override in milliseconds. */
  timeoutMs?: number;
  /** Handler for this tool alone; when absent, `McpServerData.toolHandler` is called. */
  handler?: (params: IToolHandlerParams) => Promise<TToolHandlerResponse> | TToolHandlerResponse;
}

export interface ITextContent { type: 'text'; text: string; annotations?: JsonObject; _meta?: JsonObject }
export interface IImageContent { type: 'image'; data: string; mimeType: string; annotations?: JsonObject; _meta?: JsonObject }
export interface IAudioContent { type: 'audio'; data: string; mimeType: string; annotations?: JsonObject; _meta?: JsonObject }
export interface IResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: JsonObject;
  _meta?: JsonObject;
}
export interface IEmbeddedResourceContent {
  type: 'resource';
  resource: IResourceContents;
  annotations?: JsonObject;
  _meta?: JsonObject;
}
export type IContentBlock = ITextContent | IImageContent | IAudioContent | IResourceLinkContent | IEmbeddedResourceContent;

/** The result a tool handler returns: the MCP `CallToolResult` shape. */
export interface IToolHandlerStructuredResponse {
  content: IContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}
export interface IToolHandlerTextResponse {
  content: ITextContent[];
  isError?: boolean;
  _meta?: JsonObject;
}
export type TToolHandlerResponse = IToolHandlerStructuredResponse | IToolHandlerTextResponse;

export interface IToolHandlerParams {
  name: string;
  arguments: JsonObject;
  /** Aborted on client cancellation or on the tool timeout. */
  signal: AbortSignal;
  /** Always callable; a no-op when the client asked for no progress. */
  sendProgress: (progress: number, total?: number, message?: string) => void;
  /** Capabilities the client declared. */
  clientCapabilities: JsonObject;
  /** Request headers on HTTP transports (lower-cased names), undefined on stdio. */
  headers?: Record<string, string>;
  /** Talks back to the client (logging, elicitation, sampling). */
  client: IClientChannel;
  /** The request's context: request id, era, transport, auth. */
  context: RequestContext;
  /**
   * The 2025-era connection the call came in on (Streamable HTTP session, legacy SSE
   * stream, stdio): a handle that stays valid after the call, to send to that session
   * alone later (`log`, `resourceUpdated`, `listChanged`) and to give it resources of
   * its own. Undefined on 2026-07-28 and on a stateless endpoint. Also `context.session`.
   */
  session?: IMcpSession;
  /**
   * For tools with `execution.taskStart: 'handler'`: answers the request with
   * a task now and lets the handler go on in the background (2026-07-28 tasks
   * extension). Resolves at once, doing nothing, where the call cannot become
   * a task (a 2025-era call, which the client made a task or not up front; a
   * client without the extension; tasks off).
   */
  startTask: () => Promise<void>;
  /**
   * Reports the stage a call running as a task is in: the task's `statusMessage`, which
   * tasks/get shows on every instance (the task store) and the 2025-era status notification
   * carries. Always callable; does nothing while the call is not a task (before `startTask()`
   * under `taskStart: 'handler'`, or a call that is not a task at all). Reports are coalesced:
   * at most one write every 250 ms, the latest wins; a message is cut to 1,024 characters.
   */
  setTaskStatusMessage: (message: string) => void;
  /**
   * Fields of this call's audit record (`mcp.audit`, page 13): `audit.set(name, value)` adds them
   * under the record's `extra`. Nothing a handler does keeps the call from being recorded; with the
   * audit trail off the values are checked and dropped.
   */
  audit: IAuditFields;
  /**
   * The server's event types (`McpServerData.events`, the MCP Events extension):
   * `events.emit(name, payload, { eventId })` resolves once the occurrence is stored; it then
   * reaches every poll, push stream and webhook subscription whose arguments match.
   */
  events: IEventEmitter;
  /**
   * Outbound webhooks (`webhooks.endpoints`): `send(type, data, { idempotencyKey })`
   * resolves once the event is in the outbox; delivery is signed, retried and at
   * least once. With no endpoint configured for the type, nothing is queued.
   */
  webhooks: IWebhookSender;
}

export interface IPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  /** Values offered by completion/complete; a function may filter by the typed value, and learns who asks. */
  complete?: string[] | ((value: string, context: ICompletionContext) => string[] | Promise<string[]>);
}

/** What a function completion source receives besides the typed value. */
export interface ICompletionContext {
  /** The values of the other arguments (or template variables) the client already chose. */
  arguments?: Record<string, string>;
  /** The verified caller; undefined when anonymous (the source runs only when the caller may use the prompt or template). */
  auth?: RequestContext['auth'];
  /** Aborted when the client cancels the request or goes away. */
  signal?: AbortSignal;
  /** The whole request context (request id, era, transport, client capabilities). */
  request?: RequestContext;
}

export interface IPromptMessage {
  role: 'user' | 'assistant';
  content: IContentBlock;
}

export interface IPromptResult {
  description?: string;
  messages: IPromptMessage[];
}

export interface IPromptData extends IAccessRequirements {
  name: string;
  title?: string;
  description?: string;
  arguments?: IPromptArgument[];
  icons?: IIcon[];
  _meta?: JsonObject;
  deprecated?: IDeprecation;
  /** Text (a single user message), a result, or a function producing either. */
  content:
    | string
    | IPromptResult
    | ((args: Record<string, string>, context: RequestContext) => string | IPromptResult | Promise<string | IPromptResult>);
}

export interface IResourceData extends IResourceDescription {
  /**
   * The cache hint of this resource's 2026-07-28 reads (`ttlMs`, `cacheScope`), field by field
   * over `mcp.cacheHints` for resources/read. A resource only some callers may read is never
   * `public`. 2025-era answers carry no cache fields. Not listed.
   */
  cacheHint?: ICacheHint;
  /** Static text, or a function returning text, blob (base64) or full contents. */
  content:
    | string
    | ((uri: string, context: RequestContext) => Promise<TResourceContent> | TResourceContent);
}

export interface IResourceTemplateInfo extends IAccessRequirements {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: IIcon[];
  annotations?: JsonObject;
  _meta?: JsonObject;
  /** Completion per template variable. */
  complete?: Record<string, IPromptArgument['complete']>;
  /** The cache hint of every read resolved through this template, as `IResourceData.cacheHint`. Not listed. */
  cacheHint?: ICacheHint;
  read: (uri: string, variables: Record<string, string>, context: RequestContext) => Promise<TResourceContent> | TResourceContent;
}

export interface IServerInfo {
  name?: string;
  version?: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: IIcon[];
}

export type TToolsSource = ITool[] | ((context: RequestContext) => ITool[] | Promise<ITool[]>);
/**
 * The resources: an array (checked at start), or a function of the request context
 * resolved for every `resources/list` and `resources/read` (the caller's principal,
 * `context.auth`; the session, `context.session`).
 */
export type TResourcesSource = IResourceData[] | ((context: RequestContext) => IResourceData[] | Promise<IResourceData[]>);
