/**
 * Builds an SDK server instance wired to the core: one per 2025-era connection
 * (session, stdio, legacy SSE) or per 2026-07-28 request. Everything costly
 * (registry, compiled schemas, pipeline) is built once in the core; this only
 * connects handlers.
 */
import { fromJsonSchema, McpServer, type ServerContext, type StandardSchemaWithJSON, type Transport } from '@modelcontextprotocol/server';
import type { TaskManager } from '../tasks/task-manager.js';
import { installTaskDispatch } from './task-dispatch-2025.js';
import { canAccess, visibleItems } from '../auth/access-check.js';
import { complete, hasCompletions } from '../core/completions.js';
import type { Core } from '../core/core.js';
import { ResourceNotFoundError, ValidationError } from '../core/errors.js';
import type { Operation } from '../core/pipeline.js';
import { createProgressReporter, noopProgress } from '../core/progress.js';
import { describePrompt, renderPrompt } from '../core/prompts.js';
import type { AuthInfo, ProtocolEra, RequestContext, TransportKind } from '../core/request-context.js';
import { describeResource, describeTemplate, readResource } from '../core/resources.js';
import type { IClientChannel, ITool, JsonObject, LogLevel } from '../core/types.js';
import { legacySide } from './client-channel.js';
import { runWithClientInput, type ClientInputRun } from './client-input-adapter.js';
import { toProtocolError } from './errors.js';
import type { LiveServers } from './live-servers.js';
import type { ModernEraSupport } from './modern-era.js';
import { buildRequestContext, type HttpRequestDescriber } from './request-context-builder.js';
import { describeTool } from './tool-wire.js';
import { registerExtensionMethods } from './extension-methods.js';
import { tapWire } from './wire-tap.js';
import { serverCapabilities, settleListChanged } from './capabilities.js';
import type { ReplayBook } from './fast-call-replay.js';
import { serverImplementation } from './server-identity.js';
import { TASK_STATE } from '../core/steps/task-support.js';
import { registerTaskMethods2026 } from './task-methods-2026.js';
import { runWithTaskLaunch, shouldLaunchTask } from './task-launch-2026.js';

export interface ServerFactoryOptions {
  core: Core;
  live: LiveServers;
  /** requestState codec and cache hints of the 2026-07-28 revision, built once per process. */
  modern: ModernEraSupport;
  transport: TransportKind;
  describeHttp?: HttpRequestDescriber;
  /** Track the instance for resource-update and list-changed delivery (connection-scoped 2025-era servers). */
  trackLive?: boolean;
  /** The identity of requests without their own (stdio started with `webServer.auth.stdioToken`). */
  defaultAuth?: AuthInfo;
  /**
   * Whether each request has a stream of its own for server-to-client requests
   * (default true: stdio, legacy SSE, Streamable HTTP with SSE responses); false
   * for Streamable HTTP with JSON responses, where they go on the GET stream.
   */
  requestStreams?: boolean;
  /** Tasks (`mcp.tasks.enabled`): 2025-era task methods are dispatched by protocol/task-dispatch-2025.ts. */
  tasks?: TaskManager;
  /** Calls the 2026-07-28 fast path ran and lets this path answer (protocol/fast-call-replay.ts). */
  replay?: ReplayBook;
  /** Protocol revisions the instance accepts (the SDK's default when absent); see notification-encoder.ts. */
  supportedProtocolVersions?: string[];
}

export interface BuiltServer {
  server: McpServer;
  /** 2025-era: the level the client set with `logging/setLevel` on this connection. */
  logLevel: () => LogLevel | undefined;
  /** Call when the connection ends, to stop delivering notifications to it. */
  dispose: () => void;
}

const inputSchemas = new WeakMap<ITool, StandardSchemaWithJSON>();

function inputSchemaOf(tool: ITool): StandardSchemaWithJSON {
  let s = inputSchemas.get(tool);
  if (!s) {
    s = fromJsonSchema(tool.inputSchema as Parameters<typeof fromJsonSchema>[0]);
    inputSchemas.set(tool, s);
  }
  return s;
}

function withCursor<T extends object>(result: T, nextCursor: string | undefined): T & { nextCursor?: string } {
  return nextCursor ? { ...result, nextCursor } : result;
}

export async function buildServer(opts: ServerFactoryOptions, era: ProtocolEra): Promise<BuiltServer> {
  const { core } = opts;
  const { registry } = core;
  const hasResources = registry.resources.size > 0 || registry.templates.length > 0;
  const server = new McpServer(
    serverImplementation(core),
    {
      capabilities: serverCapabilities(core, era, opts.tasks !== undefined),
      ...(core.instructions ? { instructions: core.instructions } : {}),
      // The SDK refuses a tampered or expired requestState with -32602 before any handler runs.
      requestState: { verify: (state: string, ctx: ServerContext) => opts.modern.codec.verify(state, ctx) },
      ...(opts.modern.cacheHints ? { cacheHints: opts.modern.cacheHints } : {}),
      ...(opts.supportedProtocolVersions ? { supportedProtocolVersions: opts.supportedProtocolVersions } : {}),
    },
  );
  settleListChanged(server, core);
  const live = (opts.trackLive ?? era === '2025') ? opts.live.add(server, era) : undefined;
  let stopTaskDispatch: (() => void) | undefined;
  const tasks = era === '2025' ? opts.tasks : undefined;
  const modernTasks = era === '2026' ? opts.tasks : undefined;
  if (tasks) {
    // Task methods are claimed at the transport once the server is connected to it.
    const connect = server.server.connect.bind(server.server);
    server.server.connect = async (transport: Transport) => {
      await connect(transport);
      stopTaskDispatch = installTaskDispatch(transport, {
        core,
        tasks,
        server,
        transportKind: opts.transport,
        logLevel: () => logLevel,
        ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}),
        ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}),
      });
    };
  }
  const source = {
    era,
    transport: opts.transport,
    server,
    ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}),
    ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}),
  };
  const tap = tapWire(server.server, core.telemetry.wire, era, opts.transport, opts.replay?.scopeOf);
  const contextOf = (ctx: ServerContext) => buildRequestContext(source, ctx, tap.scope(ctx.mcpReq.id));
  const low = server.server;
  // 2025-era: the client's log level on this connection, kept here (the one place both the SDK path and the session fast path read it).
  let logLevel: LogLevel | undefined;
  if (era === '2025' && core.declared.logging) {
    low.setRequestHandler('logging/setLevel', async (req) => {
      logLevel = req.params.level;
      return {};
    });
  }
  const sideOf = (ctx: ServerContext) => {
    const closeSSE = ctx.http?.closeSSE;
    return legacySide(low, ctx.mcpReq.id, { onRequestStream: opts.requestStreams ?? true, logLevel: () => logLevel, closeSSE: closeSSE ? () => closeSSE() : undefined });
  };
  const withClientInput = <T>(ctx: ServerContext, rc: RequestContext, binding: ClientInputRun['binding'], body: (client: IClientChannel) => Promise<T>) =>
    runWithClientInput({ ctx, ...(era === '2025' ? { legacySide: sideOf(ctx) } : {}), rc, binding, modern: opts.modern, validator: registry.validator }, body);

  // Static tools are registered with the SDK so it knows their metadata (and, on
  // 2026-07-28, checks Mcp-Param-* headers); the call and list handlers are then
  // replaced by the core's, in that order.
  if (!registry.hasDynamicTools) {
    for (const tool of await registry.listTools({ requestId: 'init', era, transport: opts.transport, clientCapabilities: {} })) {
      server.registerTool(tool.name, { inputSchema: inputSchemaOf(tool), ...(tool.description ? { description: tool.description } : {}) }, () => ({ content: [] }));
    }
  }

  if (registry.hasTools) {
    low.setRequestHandler('tools/list', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const tools = visibleItems(await registry.listTools(rc), rc, core.hideUnauthorized);
        const page = core.paginator.paginate('tools', tools, (t) => t.name, req.params?.cursor);
        return withCursor({ tools: page.items.map(describeTool) }, page.nextCursor) as never;
      } catch (err) {
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });

    low.setRequestHandler('tools/call', async (req, ctx) => {
      // A call the 2026-07-28 fast path already ran: only the answer is made here.
      const replayed = opts.replay?.take(ctx);
      if (replayed) return replayed.result as never;
      const rc = contextOf(ctx);
      const token = ctx.mcpReq._meta?.progressToken;
      const reporter =
        token === undefined
          ? noopProgress
          : createProgressReporter(
              (u) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...u } }),
              core.limits.progressThrottleMs,
            );
      const params = req.params as unknown as JsonObject;
      const binding = { method: 'tools/call', name: req.params.name, arguments: params.arguments };
      try {
        // 2026-07-28 with the tasks extension: the call may become a task (protocol/task-launch-2026.ts).
        const launch = modernTasks && (await shouldLaunchTask(core, rc, params.name));
        const result = await withClientInput(ctx, rc, binding, (client) => {
          if (launch && modernTasks) {
            return runWithTaskLaunch({ core, tasks: modernTasks, rc, params, requestSignal: ctx.mcpReq.signal, reporter }, client);
          }
          const op: Operation = {
            method: 'tools/call',
            ctx: rc,
            params,
            signal: ctx.mcpReq.signal,
            client,
            sendProgress: (p, t, m) => reporter.report(p, t, m),
            state: modernTasks ? new Map([[TASK_STATE.offered, true]]) : new Map(),
          };
          return core.pipeline.run(op, core.executeTool);
        });
        await reporter.flush();
        return result as never;
      } catch (err) {
        await reporter.flush();
        // A cancelled request gets no response (the protocol says so); end its
        // SSE stream so the HTTP request does not stay open until shutdown.
        if (ctx.mcpReq.signal.aborted) ctx.http?.closeSSE?.();
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
  }

  if (registry.prompts.size > 0) {
    low.setRequestHandler('prompts/list', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const page = core.paginator.paginate('prompts', visibleItems([...registry.prompts.values()], rc, core.hideUnauthorized), (p) => p.name, req.params?.cursor);
        return withCursor({ prompts: page.items.map(describePrompt) }, page.nextCursor) as never;
      } catch (err) {
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
    low.setRequestHandler('prompts/get', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const prompt = registry.prompts.get(req.params.name);
        if (!prompt) throw new ValidationError(`Unknown prompt: ${req.params.name}`, { field: 'name', reason: 'unknown prompt' });
        core.deprecations.used('prompt', prompt.name, prompt.deprecated);
        const args = (req.params.arguments ?? {}) as Record<string, string>;
        const binding = { method: 'prompts/get', name: prompt.name, arguments: args };
        return (await withClientInput(ctx, rc, binding, () => renderPrompt(prompt, args, rc))) as never;
      } catch (err) {
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
  }

  if (hasResources) {
    low.setRequestHandler('resources/list', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const page = core.paginator.paginate('resources', visibleItems([...registry.resources.values()], rc, core.hideUnauthorized), (r) => r.uri, req.params?.cursor);
        return withCursor({ resources: page.items.map(describeResource) }, page.nextCursor) as never;
      } catch (err) {
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
    low.setRequestHandler('resources/templates/list', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const page = core.paginator.paginate('templates', registry.templates.filter((t) => !core.hideUnauthorized || canAccess(t.def, rc)), (t) => t.def.uriTemplate, req.params?.cursor);
        return withCursor({ resourceTemplates: page.items.map((t) => describeTemplate(t.def)) }, page.nextCursor) as never;
      } catch (err) {
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
    low.setRequestHandler('resources/read', async (req, ctx) => {
      const rc = contextOf(ctx);
      try {
        const direct = registry.resources.get(req.params.uri);
        if (direct?.deprecated) core.deprecations.used('resource', direct.uri, direct.deprecated);
        const binding = { method: 'resources/read', name: req.params.uri };
        return (await withClientInput(ctx, rc, binding, async () => ({ contents: await readResource(registry, req.params.uri, rc) }))) as never;
      } catch (err) {
        // The 2026-07-28 revision answers an unknown resource with -32602 and the URI (SEP-2164).
        if (era === '2026' && err instanceof ResourceNotFoundError) {
          throw toProtocolError(new ValidationError(err.message, { uri: req.params.uri }), rc.requestId, core.logger);
        }
        throw toProtocolError(err, rc.requestId, rc.logger ?? core.logger);
      }
    });
    if (core.declared.subscribe) {
      low.setRequestHandler('resources/subscribe', async (req) => {
        live?.subscriptions.add(req.params.uri);
        return {};
      });
      low.setRequestHandler('resources/unsubscribe', async (req) => {
        live?.subscriptions.delete(req.params.uri);
        return {};
      });
    }
  }

  registerExtensionMethods(server, core, contextOf);
  if (modernTasks) registerTaskMethods2026(server, core, modernTasks, contextOf);

  if (hasCompletions(registry)) {
    low.setRequestHandler('completion/complete', async (req) => {
      const answer = await complete(registry, req.params as never);
      return { completion: { ...answer } };
    });
  }

  return {
    server,
    logLevel: () => logLevel,
    dispose: () => {
      if (live) opts.live.remove(live);
      stopTaskDispatch?.();
    },
  };
}
