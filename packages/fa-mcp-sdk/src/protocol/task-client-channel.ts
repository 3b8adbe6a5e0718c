/**
 * The client channel of a task running in the background on a 2025-era
 * connection: requests go to the client through the connection's server
 * (there is no originating request any more to relate them to), marked with
 * the task they belong to (`_meta["io.modelcontextprotocol/related-task"]`).
 * While the task waits for the client's answer its status is `input_required`
 * (2025-11-25 tasks), then `working` again.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { assertClientCapability } from '../core/client-capabilities.js';
import type { IClientChannel, JsonObject, LogLevel } from '../core/types.js';
import { passesLogLevel } from './client-channel.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export interface TaskChannelHooks {
  /** The level the client set with `logging/setLevel` on the connection (undefined: every level). */
  logLevel: () => LogLevel | undefined;
  /** The task's id once it exists (the channel is made before the task is created). */
  taskId: () => string | undefined;
  /** Records the task's status while a request to the client is outstanding. */
  waiting: (taskId: string, waiting: boolean) => Promise<void>;
}

export function createTaskClientChannel(server: McpServer, hooks?: TaskChannelHooks): IClientChannel {
  const low = server.server;
  // The same rule as a synchronous call: asking for what the client did not declare is -32021.
  const declared = () => (low.getClientCapabilities() as Record<string, unknown> | undefined) ?? {};
  let outstanding = 0;
  const related = (params: JsonObject): JsonObject => {
    const taskId = hooks?.taskId();
    if (!taskId) return params;
    return { ...params, _meta: { ...((params._meta as JsonObject | undefined) ?? {}), [RELATED_TASK]: { taskId } } };
  };
  /** Runs one request to the client with the task marked input_required while it is outstanding. */
  const asking = async <T>(send: () => Promise<T>): Promise<T> => {
    const taskId = hooks?.taskId();
    if (!taskId || !hooks) return send();
    if (outstanding++ === 0) await hooks.waiting(taskId, true).catch(() => undefined);
    try {
      return await send();
    } finally {
      if (--outstanding === 0) await hooks.waiting(taskId, false).catch(() => undefined);
    }
  };
  return {
    // The connection's level, as for a call's own logs (the framework, not the SDK, keeps it).
    log: async (level: LogLevel, data: unknown, logger?: string) => {
      if (hooks && !passesLogLevel(level, hooks.logLevel())) return;
      await low.sendLoggingMessage({ level, data, ...(logger ? { logger } : {}) });
    },
    elicit: async (params: JsonObject) => {
      assertClientCapability('elicitation', params, declared());
      return asking(async () => (await low.elicitInput(related(params) as Parameters<typeof low.elicitInput>[0])) as unknown as JsonObject);
    },
    sample: async (params: JsonObject) => {
      assertClientCapability('sampling', params, declared());
      return asking(async () => (await low.createMessage(related(params) as Parameters<typeof low.createMessage>[0])) as unknown as JsonObject);
    },
    listRoots: async () => {
      assertClientCapability('roots', {}, declared());
      return asking(async () => (await low.listRoots(related({}) as Parameters<typeof low.listRoots>[0])) as unknown as JsonObject);
    },
    resumed: false,
    notify: (method: string, params?: JsonObject) => low.notification({ method, ...(params ? { params } : {}) } as Parameters<typeof low.notification>[0]),
  };
}
