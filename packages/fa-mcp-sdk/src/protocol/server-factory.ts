/**
 * Builds an SDK server instance wired to the core: one per 2025-era connection
 * (session, stdio, legacy SSE) or per 2026-07-28 request. Everything costly
 * (registry, compiled schemas, pipeline) is built once in the core; this only
 * connects handlers.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { TaskManager } from '../tasks/task-manager.js';
import { taskDispatchFilter } from './task-dispatch-2025.js';
import { CoreServer } from './core-server.js';
import type { Core } from '../core/core.js';
import type { AuthInfo, ProtocolEra, TransportKind } from '../core/request-context.js';
import type { JsonObject, LogLevel } from '../core/types.js';
import { sdkOperationRunner } from './sdk-operation.js';
import { runToolCall } from './tool-call-run.js';
import { runMethod, servesMethod, unknownResourceAsInvalidParams, type RunMethod } from './method-run.js';
import { legacySide } from './client-channel.js';
import type { LiveServer, LiveServers } from './live-servers.js';
import type { ModernEraSupport } from './modern-era.js';
import { buildRequestContext, type HttpRequestDescriber } from './request-context-builder.js';
import { registerExtensionMethods } from './extension-methods.js';
import { observeWire } from './wire-observe.js';
import { LIST_PAGES, type ListMethod } from './list-pages.js';
import { withListCacheFields } from './cache-fields.js';
import { settleListChanged } from './capabilities.js';
import { serverArgs } from './server-options.js';
import { TASK_STATE } from '../core/steps/task-support.js';
import { registerTaskMethods2026 } from './task-methods-2026.js';
import { registerEventsMethods } from './events-methods.js';
import { CORE_METHODS, onFirstRequest, type CoreMethod } from './core-methods.js';

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
  /** Protocol revisions the instance accepts (the SDK's default when absent); see sdk-codec.ts. */
  supportedProtocolVersions?: string[];
  /**
   * 2025-era sessions kept in a shared store (mcp.sessions.store: postgres): told of every change of the
   * session's state, and awaited before the answer, so the next request may go to any instance.
   */
  sessionChanged?: (change: SessionStateChange) => Promise<void>;
  /** The end of the connection's observation, begun before this instance took the connection over (stdio's cold front). */
  observedConnection?: () => void;
}

/** One change of a 2025-era session's state. */
export type SessionStateChange = { logLevel: LogLevel } | { subscribe: string } | { unsubscribe: string };

export interface BuiltServer {
  /** The instance; its `wire` list takes the filters of a connection the caller builds (sessions) before it connects. */
  server: CoreServer;
  /** 2025-era: the level the client set with `logging/setLevel` on this connection. */
  logLevel: () => LogLevel | undefined;
  /**
   * Call when the connection ends, to stop delivering notifications to it; `'local'` when only this
   * instance's copy of a shared session closes (the session lives on elsewhere).
   */
  dispose: (scope?: 'end' | 'local') => void;
  /** 2025-era tracked connections: the connection's entry, which is its session handle (live-session.ts). */
  session?: LiveServer;
  /** Sets the session's state again (a session restored from the store, or changed on another instance). */
  restoreState: (state: { logLevel?: string; subscriptions?: string[] } | SessionStateChange) => void;
}

/** `sessionId`: the session the instance serves (a Streamable HTTP session, a legacy SSE stream); stdio gets one minted. */
export async function buildServer(opts: ServerFactoryOptions, era: ProtocolEra, sessionId?: string): Promise<BuiltServer> {
  const { core } = opts;
  const { registry } = core;
  const hasResources = registry.hasResources;
  const args = serverArgs(core, {
    era,
    tasks: opts.tasks !== undefined,
    modern: opts.modern,
    ...(opts.supportedProtocolVersions ? { supportedProtocolVersions: opts.supportedProtocolVersions } : {}),
  });
  const server = new CoreServer(args.info, args.options);
  const low = server.server;
  low.registerCapabilities(args.capabilities);
  // The SDK registers server/discover on every instance; a 2025-era one refuses it by its
  // method table before looking for a handler (-32601), so the handler would only be held.
  if (era === '2025') low.removeRequestHandler('server/discover');
  // 2025-era: the client's log level on this connection, kept here (the one place both the SDK path, the session fast path
  // and the session handle read it).
  let logLevel: LogLevel | undefined;
  const levelOf = () => logLevel;
  // The connection's entry is its session handle (`context.session`, live-session.ts).
  const live = (opts.trackLive ?? era === '2025') ? opts.live.add(server, era, { id: sessionId, logLevel: levelOf }) : undefined;
  const tasks = era === '2025' ? opts.tasks : undefined;
  const modernTasks = era === '2026' ? opts.tasks : undefined;
  // Task methods are claimed by a filter of the connection, before the SDK dispatches them.
  const dispatch = tasks
    ? taskDispatchFilter({
        core,
        tasks,
        server,
        transportKind: opts.transport,
        logLevel: levelOf,
        ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}),
        ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}),
        ...(live ? { session: live } : {}),
      })
    : undefined;
  const source = {
    era,
    transport: opts.transport,
    server,
    session: era === '2025' ? live : undefined,
    ...(opts.describeHttp ? { describeHttp: opts.describeHttp } : {}),
    ...(opts.defaultAuth ? { defaultAuth: opts.defaultAuth } : {}),
  };
  const tap = observeWire(core.telemetry.wire, era, opts.transport, opts.observedConnection, opts.defaultAuth);
  const contextOf = (ctx: ServerContext) => buildRequestContext(source, ctx, tap.scope(ctx.mcpReq.id));
  // Every request runs through the core's pipeline with an operation naming its method and target.
  const runOp = sdkOperationRunner(core, contextOf, era === '2026' ? unknownResourceAsInvalidParams : undefined);

  const sideOf = (ctx: ServerContext) => {
    const closeSSE = ctx.http?.closeSSE;
    return legacySide(low, ctx.mcpReq.id, { onRequestStream: opts.requestStreams ?? true, logLevel: levelOf, closeSSE: closeSSE ? () => closeSSE() : undefined });
  };
  /** prompts/get, resources/read, completion/complete: the one runner (method-run.ts). */
  const answerMethod = async (method: RunMethod, params: JsonObject, ctx: ServerContext): Promise<unknown> => {
    const outcome = await runMethod(core, method, {
      rc: contextOf(ctx),
      params,
      abort: ctx.mcpReq.signal,
      clientInput: { ctx, legacySide: era === '2025' ? sideOf(ctx) : undefined, modern: opts.modern },
    });
    if ('result' in outcome) return outcome.result;
    throw outcome.error;
  };

  // No tool is registered with the SDK: Mcp-Param-* headers are checked by the pipeline
  // (core/steps/param-headers.ts) for every tool on every route, and the core's handlers serve
  // the lists and calls. The SDK's listChanged flags are taken back where not declared.
  settleListChanged(server, core);

  // One handler for every list of this instance; the pages are shared (list-pages.ts).
  const listPage = (req: { method: string; params?: { cursor?: string } }, ctx: ServerContext) => {
    const method = req.method as ListMethod;
    const { name, page } = LIST_PAGES[method];
    return runOp(ctx, { method, target: { kind: 'list', name }, params: req.params }, async (op) => withListCacheFields(core, method, op.ctx, await page(core, op, req.params?.cursor))) as never;
  };

  /** Registers the core's handler of `method` with the SDK, when this instance serves it (core-methods.ts). */
  const install = (method: CoreMethod): void => {
    switch (method) {
      case 'logging/setLevel':
        if (era !== '2025' || !core.declared.logging) return;
        low.setRequestHandler('logging/setLevel', (req, ctx) =>
          runOp(ctx, { method: 'logging/setLevel', target: { kind: 'server', name: req.params.level }, params: req.params as unknown as JsonObject }, async () => {
            logLevel = req.params.level;
            await opts.sessionChanged?.({ logLevel: req.params.level });
            return {};
          }),
        );
        return;
      case 'tools/list':
      case 'prompts/list':
      case 'resources/list':
      case 'resources/templates/list':
        if (method === 'tools/list' ? !registry.hasTools : method === 'prompts/list' ? registry.prompts.size === 0 : !hasResources) return;
        low.setRequestHandler(method, listPage);
        return;
      case 'tools/call':
        if (!registry.hasTools) return;
        low.setRequestHandler('tools/call', async (req, ctx) => {
          const rc = contextOf(ctx);
          const params = req.params as unknown as JsonObject;
          const outcome = await runToolCall(core, {
            rc,
            params,
            name: req.params.name,
            progressToken: ctx.mcpReq._meta?.progressToken,
            port: { notify: (n) => ctx.mcpReq.notify(n as never) },
            abort: ctx.mcpReq.signal,
            clientInput: { ctx, legacySide: era === '2025' ? sideOf(ctx) : undefined, modern: opts.modern },
            state: modernTasks ? new Map([[TASK_STATE.offered, true]]) : new Map(),
            tasks: modernTasks,
          });
          if ('result' in outcome) return outcome.result as never;
          // A cancelled request gets no response (the protocol says so); end its
          // SSE stream so the HTTP request does not stay open until shutdown.
          if (ctx.mcpReq.signal.aborted) ctx.http?.closeSSE?.();
          throw outcome.error;
        });
        return;
      case 'prompts/get':
        if (!servesMethod(core, method)) return;
        low.setRequestHandler('prompts/get', (req, ctx) => answerMethod('prompts/get', req.params as unknown as JsonObject, ctx) as never);
        return;
      case 'resources/read':
        if (!servesMethod(core, method)) return;
        low.setRequestHandler('resources/read', (req, ctx) => answerMethod('resources/read', req.params as unknown as JsonObject, ctx) as never);
        return;
      case 'resources/subscribe':
        if (!hasResources || !core.declared.subscribe) return;
        // A URI the caller may not read is refused by the authorize step: never subscribed, nothing delivered.
        low.setRequestHandler('resources/subscribe', (req, ctx) =>
          runOp(ctx, { method: 'resources/subscribe', target: { kind: 'resource', name: req.params.uri }, params: req.params as unknown as JsonObject }, async () => {
            if (live) (live.subscribed ??= new Set()).add(req.params.uri);
            await opts.sessionChanged?.({ subscribe: req.params.uri });
            return {};
          }),
        );
        return;
      case 'resources/unsubscribe':
        if (!hasResources || !core.declared.subscribe) return;
        low.setRequestHandler('resources/unsubscribe', (req, ctx) =>
          runOp(ctx, { method: 'resources/unsubscribe', target: { kind: 'resource', name: req.params.uri }, params: req.params as unknown as JsonObject }, async () => {
            live?.subscribed?.delete(req.params.uri);
            await opts.sessionChanged?.({ unsubscribe: req.params.uri });
            return {};
          }),
        );
        return;
      case 'completion/complete':
        if (!servesMethod(core, method)) return;
        low.setRequestHandler('completion/complete', (req, ctx) => answerMethod('completion/complete', req.params as unknown as JsonObject, ctx) as never);
        return;
    }
  };

  if (era === '2025') {
    // Extension methods keep their place (registered now, before the core's, as below): the SDK's era
    // gate reads the methods registered with schemas before it looks for a handler.
    registerExtensionMethods(server, core, runOp);
    // The core's handlers are registered on the first request of their method, before the SDK
    // dispatches it (the tap sees every request first): an idle connection holds none of them.
    // The SDK's own logging/setLevel (registered with the capability) is replaced by the core's.
    if (core.declared.logging) low.removeRequestHandler('logging/setLevel');
    const beforeRequest = onFirstRequest(core, install);
    server.wire.push(tap, {
      inbound(message, extra, next) {
        if ('method' in message && 'id' in message) beforeRequest(message.method);
        next(message, extra);
      },
    });
  } else {
    server.wire.push(tap);
    for (const method of CORE_METHODS) if (method !== 'completion/complete') install(method);
    registerExtensionMethods(server, core, runOp);
    if (modernTasks) registerTaskMethods2026(server, core, modernTasks, runOp);
    if (core.events) registerEventsMethods(server, core.events, runOp);
    install('completion/complete');
  }

  if (dispatch) server.wire.push(dispatch);

  return {
    server,
    logLevel: levelOf,
    ...(live && era === '2025' ? { session: live } : {}),
    dispose: (scope = 'end') => {
      if (live) opts.live.remove(live, scope === 'end');
      dispatch?.dispose();
    },
    restoreState: (state) => {
      if ('logLevel' in state && state.logLevel !== undefined) logLevel = state.logLevel as LogLevel;
      if (!live) return;
      // Made on first use (an idle session without subscriptions holds no Set).
      if ('subscriptions' in state) live.subscribed = state.subscriptions?.length ? new Set(state.subscriptions) : undefined;
      if ('subscribe' in state) (live.subscribed ??= new Set()).add(state.subscribe);
      if ('unsubscribe' in state) live.subscribed?.delete(state.unsubscribe);
    },
  };
}
