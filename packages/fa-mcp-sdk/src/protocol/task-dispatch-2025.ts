/**
 * Tasks on 2025-era connections (2025-11-25 core task methods). The SDK's own
 * tools/call path checks every result against CallToolResult and has no task
 * layer, so this module owns the dispatch of task-augmented `tools/call` and of
 * `tasks/get|result|list|cancel`: a filter of the connection's wire adapter
 * (wire-adapter.ts) claims those messages before the SDK sees them and answers
 * on the same connection. Every other message goes to the SDK server untouched.
 */
import type { JSONRPCMessage, McpServer, MessageExtraInfo } from '@modelcontextprotocol/server';
import { callerKey } from '../core/caller-key.js';
import type { Core } from '../core/core.js';
import { toWireError } from '../core/error-mapping.js';
import { MethodNotFoundError, MissingClientCapabilityError, ValidationError } from '../core/errors.js';
import { canAccess } from '../core/access-check.js';
import { missingRequiredCapabilities } from '../core/client-capabilities.js';
import { describeMissing } from '../core/steps/client-capabilities.js';
import { runOperation } from '../core/operation.js';
import type { Operation, OperationTarget } from '../core/pipeline.js';
import type { LogLevel } from '../core/types.js';
import { noopProgress } from '../core/progress.js';
import type { AuthInfo, RequestContext, TransportKind } from '../core/request-context.js';
import type { IMcpSession } from '../core/session-types.js';
import { fromSdkAuthInfo } from './auth-info.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { toTaskDto, type ITaskRecord } from '../tasks/task-types.js';
import { createTaskClientChannel } from './task-client-channel.js';
import { TASK_STATE } from '../core/steps/task-support.js';
import type { HttpRequestDescriber } from './request-context-builder.js';
import type { WireConnection, WireFilter } from './wire-adapter.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export interface TaskDispatchDeps {
  core: Core;
  tasks: TaskManager;
  server: McpServer;
  transportKind: TransportKind;
  /** The level the client set with `logging/setLevel` on this connection: a task's logs obey it too. */
  logLevel: () => LogLevel | undefined;
  describeHttp?: HttpRequestDescriber;
  /** The identity of requests without their own (stdio with `webServer.auth.stdioToken`). */
  defaultAuth?: AuthInfo;
  /** The connection's session handle (`params.session` of a task's handler, valid while it runs in the background). */
  session?: IMcpSession;
}

type RpcRequest = { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> };

const taskTarget = (method: string, params: Record<string, unknown>): OperationTarget =>
  method === 'tasks/list' ? { kind: 'list', name: 'tasks' } : { kind: 'task', name: String(params.taskId ?? '') };

const isRequest = (m: JSONRPCMessage): m is RpcRequest => 'method' in m && 'id' in m && m.id !== undefined;
const isModern = (m: RpcRequest) => typeof (m.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion'] === 'string';

function claims(m: JSONRPCMessage): m is RpcRequest {
  if (!isRequest(m) || isModern(m)) return false;
  if (m.method === 'tools/call') return !!m.params && typeof m.params.task === 'object' && m.params.task !== null;
  return m.method === 'tasks/get' || m.method === 'tasks/result' || m.method === 'tasks/list' || m.method === 'tasks/cancel';
}

/** The dispatch of one connection, as a filter of its wire adapter; `dispose` stops its status notifications. */
export function taskDispatchFilter(deps: TaskDispatchDeps): WireFilter & { dispose(): void } {
  let connection: WireConnection | undefined;
  let stopStatus: (() => void) | undefined;
  const mine = new Set<string>(); // tasks created on this connection: their status changes are sent here
  const send = (message: Record<string, unknown>, related?: string | number) =>
    connection?.send(message as JSONRPCMessage, related === undefined ? undefined : { relatedRequestId: related }) ?? Promise.resolve();

  const filter: WireFilter & { dispose(): void } = {
    started(c) {
      connection = c;
      stopStatus = deps.tasks.onStatus((record) => {
        if (!mine.has(record.taskId)) return;
        void send({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: toTaskDto(record) }).catch(() => undefined);
      });
    },
    inbound(message, extra, next) {
      if (!claims(message)) return next(message, extra);
      void answer(message, extra).then(
        (result) => send({ jsonrpc: '2.0', id: message.id, result }, message.id),
        (err: unknown) => {
          const requestId = contextOf(deps, extra).requestId;
          const wire = toWireError(err, requestId);
          if (!(err instanceof ValidationError) && !(err instanceof MethodNotFoundError)) deps.core.logger.debug({ err, method: message.method }, 'task request failed');
          return send({ jsonrpc: '2.0', id: message.id, error: { code: wire.code, message: wire.message, ...(wire.data ? { data: wire.data } : {}) } }, message.id);
        },
      );
    },
    closed() {
      filter.dispose();
    },
    dispose() {
      stopStatus?.();
      stopStatus = undefined;
      mine.clear();
    },
  };

  async function answer(m: RpcRequest, extra?: MessageExtraInfo): Promise<Record<string, unknown>> {
    const rc = contextOf(deps, extra);
    const owner = callerKey(rc, 'subject');
    const params = m.params ?? {};
    switch (m.method) {
      case 'tools/call': {
        // Past the retained-task cap the store throws a TaskLimitError: a rate limit (-32003) the client can retry on.
        const record = await startTask(deps, rc, owner, params);
        mine.add(record.taskId);
        return { task: toTaskDto(record) };
      }
      default:
        // The task methods run through the core's pipeline (the call above runs it inside its task).
        return runOperation(deps.core, { method: m.method, target: taskTarget(m.method, params), ctx: rc, params, signal: new AbortController().signal }, () => taskMethod(m, params, owner));
    }
  }

  async function taskMethod(m: RpcRequest, params: Record<string, unknown>, owner: string): Promise<Record<string, unknown>> {
    switch (m.method) {
      case 'tasks/get':
        return toTaskDto(await deps.tasks.get(String(params.taskId), owner));
      case 'tasks/cancel': {
        const record = await deps.tasks.cancel(String(params.taskId), owner);
        return toTaskDto(record);
      }
      case 'tasks/list': {
        const page = await deps.tasks.list(owner, typeof params.cursor === 'string' ? params.cursor : undefined);
        return { tasks: page.tasks.map(toTaskDto), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }
      case 'tasks/result':
        return resultOf(await deps.tasks.waitForTerminal(String(params.taskId), owner));
      default:
        throw new MethodNotFoundError(`Method not found: ${m.method}`);
    }
  }

  return filter;
}

async function startTask(deps: TaskDispatchDeps, rc: RequestContext, owner: string, params: Record<string, unknown>): Promise<ITaskRecord> {
  const name = typeof params.name === 'string' ? params.name : '';
  const tool = await deps.core.registry.findTool(name, rc);
  if (!tool) throw new ValidationError(`Unknown tool: ${name}`, { field: 'name', reason: 'unknown tool' });
  const support = tool.execution?.taskSupport ?? 'forbidden';
  if (support === 'forbidden') {
    throw new ValidationError(`Tool ${name} does not support task-augmented execution`, { field: 'task', reason: 'not supported by this tool' });
  }
  // A caller who may use the tool and lacks a capability it declares needing gets -32021 now, not a task
  // that fails (the pipeline, run inside the task, refuses it too; a caller it may not use is refused there).
  const required = tool.execution?.requiredClientCapabilities;
  const missing = required && canAccess(tool, rc) ? missingRequiredCapabilities(required, rc.clientCapabilities) : undefined;
  if (missing) throw new MissingClientCapabilityError(missing, `Tool ${name} needs the client capabilities ${describeMissing(missing)}, which the client did not declare`);
  const { task, ...callParams } = params;
  const ttl = (task as { ttl?: unknown }).ttl;
  let taskId: string | undefined;
  const op: Operation = {
    method: 'tools/call',
    target: { kind: 'tool', name },
    caller: rc.auth,
    ctx: rc,
    params: callParams,
    signal: new AbortController().signal, // replaced by the task's own signal
    client: createTaskClientChannel(deps.server, {
      logLevel: deps.logLevel,
      taskId: () => taskId,
      waiting: async (id, waiting) => void (await deps.tasks.setStatus(id, waiting ? { status: 'input_required', statusMessage: 'Waiting for input from the client' } : { status: 'working', statusMessage: undefined })),
    }),
    sendProgress: noopProgress.report,
    state: new Map([[TASK_STATE.task, true]]),
  };
  return deps.tasks.start(op, owner, typeof ttl === 'number' ? ttl : undefined, (record) => (taskId = record.taskId));
}

function resultOf(record: ITaskRecord): Record<string, unknown> {
  const meta = { [RELATED_TASK]: { taskId: record.taskId } };
  if (record.result) return { ...record.result, _meta: { ...((record.result._meta as object | undefined) ?? {}), ...meta } };
  if (record.error) {
    const err = new ValidationError(record.error.message, { ...(record.error.data as object | undefined), taskId: record.taskId });
    Object.defineProperty(err, 'code', { value: record.error.code });
    throw err;
  }
  const text = record.status === 'cancelled' ? 'The task was cancelled' : (record.statusMessage ?? 'The task failed');
  return { content: [{ type: 'text', text }], isError: true, _meta: meta };
}

function contextOf(deps: TaskDispatchDeps, extra?: MessageExtraInfo): RequestContext {
  const capabilities = (deps.server.server.getClientCapabilities() as Record<string, unknown> | undefined) ?? {};
  const rc: RequestContext = { requestId: '', era: '2025', transport: deps.transportKind, clientCapabilities: capabilities };
  if (extra?.request && deps.describeHttp) deps.describeHttp(extra.request, rc);
  if (!rc.requestId) rc.requestId = crypto.randomUUID();
  // The verified caller, exactly as request-context-builder.ts reads it for every other request.
  const auth = fromSdkAuthInfo(extra?.authInfo) ?? deps.defaultAuth;
  if (auth) rc.auth = auth;
  if (deps.session) rc.session = deps.session;
  return rc;
}
