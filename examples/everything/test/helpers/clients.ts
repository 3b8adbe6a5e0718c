/**
 * The official clients the tests drive the server with: `@modelcontextprotocol/sdk` v1 for
 * 2025-11-25 sessions, `@modelcontextprotocol/client` v2 pinned to 2026-07-28, and the tasks
 * extension's client (`@modelcontextprotocol/ext-tasks`) on top of a v2 client. Each answers the
 * server's requests with `Answers` for the capabilities it declares and keeps what the server
 * sent unasked in an `Inbox`.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, type ApplicationInputRequest, type JsonRpcResponse, type RawClientDispatch, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { connectWire2026, WireError, type WireClient2026 } from 'fa-mcp-sdk/testing';
import { Answers, type Json } from './answers.js';
import { stdioCommand } from './server-process.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const ALL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** What the server sent without being asked. */
export class Inbox {
  readonly logs: Array<{ level: string; data: unknown; logger?: string }> = [];
  readonly updated: string[] = [];
  readonly listChanged: string[] = [];
  /** Client-side errors (a v1 client reports a progress notification for a call it no longer waits for here). */
  readonly errors: string[] = [];
}

export interface V1 {
  client: ClientV1;
  inbox: Inbox;
  answers: Answers;
  close(): Promise<void>;
}

type V1Transport = Parameters<ClientV1['connect']>[0];

export async function connectV1(transport: V1Transport, capabilities: ClientCapabilities = ALL_CAPABILITIES): Promise<V1> {
  const client = new ClientV1({ name: 'everything-test-v1', version: '1.0.0' }, { capabilities });
  const answers = new Answers();
  const inbox = new Inbox();
  if (capabilities.elicitation) client.setRequestHandler(ElicitRequestSchema, async (req) => answers.elicit(req.params as Json) as never);
  if (capabilities.sampling) client.setRequestHandler(CreateMessageRequestSchema, async (req) => answers.sample(req.params as Json) as never);
  if (capabilities.roots) client.setRequestHandler(ListRootsRequestSchema, async () => answers.roots() as never);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void inbox.logs.push({ level: n.params.level, data: n.params.data, ...(n.params.logger ? { logger: n.params.logger } : {}) }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void inbox.updated.push(n.params.uri));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void inbox.listChanged.push('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void inbox.listChanged.push('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void inbox.listChanged.push('resources'));
  client.onerror = (err) => void inbox.errors.push(err.message);
  await client.connect(transport);
  return { client, inbox, answers, close: () => client.close() };
}

export const v1Http = (mcpUrl: string, capabilities?: ClientCapabilities, options?: StreamableHTTPClientTransportOptions) =>
  connectV1(new HttpV1(new URL(mcpUrl), options), capabilities);

export const v1Stdio = async (env: Record<string, string> = {}, capabilities?: ClientCapabilities) => connectV1(new StdioV1({ ...(await stdioCommand(env)), stderr: 'pipe' }), capabilities);

export interface V2 {
  client: ClientV2;
  inbox: Inbox;
  answers: Answers;
  capabilities: Json;
  close(): Promise<void>;
}

type V2Transport = Parameters<ClientV2['connect']>[0];

/** A v2 client pinned to 2026-07-28: no initialize, the envelope in every request's _meta. */
export async function connectV2(transport: V2Transport, capabilities: Json = ALL_CAPABILITIES as Json): Promise<V2> {
  const client = new ClientV2({ name: 'everything-test-v2', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const answers = new Answers();
  const inbox = new Inbox();
  if (capabilities.elicitation) client.setRequestHandler('elicitation/create', async (req) => answers.elicit(req.params as Json) as never);
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', async (req) => answers.sample(req.params as Json) as never);
  if (capabilities.roots) client.setRequestHandler('roots/list', async () => answers.roots() as never);
  client.setNotificationHandler('notifications/message', (n) => void inbox.logs.push({ level: n.params.level, data: n.params.data, ...(n.params.logger ? { logger: n.params.logger } : {}) }));
  client.setNotificationHandler('notifications/resources/updated', (n) => void inbox.updated.push(n.params.uri));
  client.setNotificationHandler('notifications/tools/list_changed', () => void inbox.listChanged.push('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => void inbox.listChanged.push('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', () => void inbox.listChanged.push('resources'));
  await client.connect(transport);
  return { client, inbox, answers, capabilities, close: () => client.close() };
}

export const v2Http = (mcpUrl: string, capabilities?: Json) => connectV2(new HttpV2(new URL(mcpUrl)), capabilities);
export const v2Stdio = async (env: Record<string, string> = {}, capabilities?: Json) => connectV2(new StdioV2({ ...(await stdioCommand(env)), stderr: 'pipe' }), capabilities);

const CLIENT_INFO = { name: 'everything-test-tasks', version: '1.0.0' };

/**
 * The host's raw 2026-07-28 request path the tasks client asks for (the SDK's codecs reject the
 * task shapes): one POST per request, to the instance `route(method)` names.
 */
function rawDispatch(route: (method: string) => WireClient2026): RawClientDispatch {
  return async (request) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    try {
      return { kind: 'result', result: (await route(method).request(method, params)) as never } as JsonRpcResponse;
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      return { kind: 'error', error: { code: err.code, message: err.message, ...(err.data ? { data: err.data as never } : {}) } } as JsonRpcResponse;
    }
  };
}

export interface TaskClient {
  session: TaskEnabledSession;
  v2: V2;
  close(): Promise<void>;
}

/**
 * The tasks extension's client on a v2 client at `mcpUrl`: `tools/call` goes there, the task
 * methods to `followUpUrl` (another instance) when given. Input the task asks for is answered
 * with the v2 client's Answers (tasks/update).
 */
export async function taskClient(mcpUrl: string, capabilities: Json = ALL_CAPABILITIES as Json, followUpUrl = mcpUrl): Promise<TaskClient> {
  const declared = { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } };
  const v2 = await v2Http(mcpUrl, declared);
  const wire = (url: string) => connectWire2026({ url }, { clientInfo: CLIENT_INFO, capabilities: declared, timeoutMs: 30_000 });
  const calls = wire(mcpUrl);
  const followUps = followUpUrl === mcpUrl ? calls : wire(followUpUrl);
  const session = createTaskSessionFromClient(v2.client, {
    endpointId: `everything-${mcpUrl}`,
    rawDispatch: rawDispatch((method) => (method.startsWith('tasks/') ? followUps : calls)),
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: declared as never },
    onInputRequest: (async (request: ApplicationInputRequest) => {
      if (request.kind === 'elicitation') return v2.answers.elicit(request.params as Json);
      if (request.kind === 'sampling') return v2.answers.sample(request.params as Json);
      return v2.answers.roots();
    }) as never,
  });
  return {
    session,
    v2,
    async close() {
      await session.close().catch(() => undefined);
      await v2.close();
    },
  };
}
