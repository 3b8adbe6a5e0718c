/**
 * Builds the task machinery of `mcp.tasks` for one server: the store (memory or
 * PostgreSQL, migrated at start), the notification bus (memory or
 * LISTEN/NOTIFY), the manager, and the sweep that deletes expired tasks and
 * takes over those whose instance vanished (re-run or failed: the manager logs which).
 */
import type { PgClientConfig } from '../db/pg-types.js';
import type { AppConfig } from '../config/schema.js';
import type { Core, CoreLogger } from '../core/core.js';
import type { Databases } from '../db/databases.js';
import { InMemoryNotificationBus, type INotificationBus } from '../state/notification-bus.js';
import { PostgresNotificationBus } from '../state/notification-bus-postgres.js';
import { TaskManager } from './task-manager.js';
import { InMemoryTaskStore } from './task-store-memory.js';
import { PostgresTaskStore } from './task-store-postgres.js';
import type { ITaskRecord, ITaskStore } from './task-types.js';
import type { Operation } from '../core/pipeline.js';
import type { RequestContext } from '../core/request-context.js';
import { TASK_STATE } from '../core/steps/task-support.js';
import { noopProgress } from '../core/progress.js';
import { ToolExecutionError } from '../core/errors.js';
import type { IClientChannel } from '../core/types.js';

export interface TaskRuntime {
  manager: TaskManager;
  store: ITaskStore;
  bus: INotificationBus;
  /**
   * Shutdown, after the grace: stops the tasks still running here. On a shared store a task of an
   * idempotent tool is handed over (its lease released for another instance to run it again);
   * the rest are marked failed (`abandoned`).
   */
  drain(): Promise<{ finished: number; handedOver: number; abandoned: number }>;
  close(): Promise<void>;
}

export interface TaskRuntimeOptions {
  settings: AppConfig['mcp']['tasks'];
  core: Core;
  logger: CoreLogger;
  databases: Databases;
  /** A store of the consumer's own (replaces `settings.store`). */
  store?: ITaskStore;
  /**
   * A PostgreSQL bus already listening on the tasks' database (the one of
   * `mcp.notifications`): reused, so an instance holds one LISTEN connection,
   * and left open on close (its owner closes it).
   */
  sharedBus?: INotificationBus;
  /** Called when this instance ends a task (webhooks' task events). */
  onFinished?: (record: ITaskRecord) => Promise<void>;
  /** Every change of a task this instance makes (TaskManagerOptions.onChange): the audit trail's task records. */
  onChange?: (record: ITaskRecord, change: 'created' | 'status') => void;
}

export async function createTaskRuntime(opts: TaskRuntimeOptions): Promise<TaskRuntime> {
  const { settings, logger } = opts;
  let store: ITaskStore;
  let bus: INotificationBus;
  if (opts.store) {
    store = opts.store;
    bus = new InMemoryNotificationBus();
  } else if (settings.store === 'postgres') {
    const pool = await opts.databases.get(settings.database).pool();
    const pgStore = new PostgresTaskStore(pool, { maxTasks: settings.maxTasks });
    await pgStore.migrate();
    store = pgStore;
    if (opts.sharedBus) {
      bus = opts.sharedBus;
    } else {
      // pg.Pool keeps the connection settings it was built with; the bus opens one listening client with them.
      const clientConfig = (pool as unknown as { options: PgClientConfig }).options;
      const pgBus = new PostgresNotificationBus(pool, clientConfig, logger);
      await pgBus.start();
      bus = pgBus;
    }
  } else {
    store = new InMemoryTaskStore({ maxTasks: settings.maxTasks });
    bus = new InMemoryNotificationBus();
  }
  const manager = new TaskManager({
    store,
    bus,
    logger,
    run: (op) => opts.core.pipeline.run(op, opts.core.executeTool),
    rerun: (record) => rerunOperation(opts.core, record),
    defaultTtlMs: settings.defaultTtlMs,
    minTtlMs: settings.minTtlMs,
    maxTtlMs: settings.maxTtlMs,
    pollIntervalMs: settings.pollIntervalMs,
    leaseMs: settings.leaseMs,
    maxUpdateBytes: settings.maxUpdateBytes,
    ...(opts.onFinished ? { onFinished: opts.onFinished } : {}),
    ...(opts.onChange ? { onChange: opts.onChange } : {}),
  });
  const sweep = async () => {
    try {
      await store.sweep(Date.now());
      await manager.recoverOrphans();
    } catch (err) {
      logger.warn({ err }, 'task sweep failed');
    }
  };
  const timer = setInterval(() => void sweep(), settings.sweepIntervalMs);
  timer.unref();
  void sweep();
  logger.info({ store: opts.store ? 'custom' : settings.store, instanceId: manager.instanceId }, 'tasks enabled');
  return {
    manager,
    store,
    bus,
    // A store of the consumer's own may be shared: released, an instance that shares it takes the tasks over.
    drain: () => manager.drain(0, { release: !(store instanceof InMemoryTaskStore) }),
    async close() {
      clearInterval(timer);
      await manager.close();
      if (bus !== opts.sharedBus) await bus.close();
      await store.close();
    },
  };
}

/** A re-run has no client to talk to: asking for input ends it with a tool error that says why. */
const noClient = (): Promise<never> => Promise.reject(new ToolExecutionError('This task was re-run after its instance stopped and cannot ask the client for input; call the tool again.'));
const offlineClient: IClientChannel = {
  log: async () => undefined,
  notify: async () => undefined,
  elicit: noClient,
  sample: noClient,
  listRoots: noClient,
  resumed: false,
};

/**
 * The operation that runs an orphaned task again, as its caller: only for a
 * tool that declares itself idempotent (`annotations.idempotentHint: true`),
 * needs no client capabilities (`execution.requiredClientCapabilities`) and
 * still exists; undefined otherwise (the task is then marked failed).
 */
async function rerunOperation(core: Core, record: ITaskRecord): Promise<Operation | undefined> {
  const caller = record.caller;
  const ctx: RequestContext = {
    requestId: `task-rerun-${record.taskId}`,
    era: caller?.era ?? '2025',
    transport: 'memory',
    clientCapabilities: {},
    ...(caller?.subject !== undefined ? { auth: { subject: caller.subject, scopes: caller.scopes, groups: caller.groups, claims: {} } } : {}),
  };
  const tool = await core.registry.findTool(record.toolName, ctx);
  // A tool that needs client capabilities needs a client: a re-run has none.
  if (tool?.annotations?.idempotentHint !== true || tool.execution?.requiredClientCapabilities) return undefined;
  return {
    method: 'tools/call',
    target: { kind: 'tool', name: record.toolName },
    caller: ctx.auth,
    ctx,
    params: { name: record.toolName, arguments: record.arguments as Record<string, never> },
    signal: new AbortController().signal, // replaced by the task's own
    client: offlineClient,
    sendProgress: noopProgress.report,
    state: new Map([[TASK_STATE.task, true]]),
  };
}
