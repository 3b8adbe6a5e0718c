/**
 * The servers this process runs, and the free functions of the public API that
 * reach them: getTools, notifyResourceUpdated, getTaskStore, resetTaskStore.
 * No server is ever assigned to a global: initMcpServer adds its handle when it
 * starts and stop() removes it, so the set says what runs now. Each function
 * takes a handle; without one it means every running server (the broadcast of
 * notifyResourceUpdated) or, for the others, the only one (an error when the
 * process runs none or several: pass the handle then).
 */
import type { ITool } from './core/types.js';
import type { McpServerHandle } from './server-handle.js';
import type { ITaskStore } from './tasks/task-types.js';

/** One set per process even when the package is loaded twice (its ESM and CJS builds). */
const KEY = Symbol.for('fa-mcp-sdk.running-servers');
const holder = globalThis as typeof globalThis & { [KEY]?: Set<McpServerHandle> };
const running = (holder[KEY] ??= new Set<McpServerHandle>());

/** Adds a started server; the returned function removes it (stop() calls it). */
export function trackRunningServer(handle: McpServerHandle): () => void {
  running.add(handle);
  return () => void running.delete(handle);
}

function theServer(fn: string, server: McpServerHandle | undefined): McpServerHandle {
  if (server) return server;
  if (running.size === 1) return [...running][0] as McpServerHandle;
  throw new Error(
    running.size === 0
      ? `${fn}(): no server is running in this process (call it after initMcpServer() resolved, or pass its handle)`
      : `${fn}(): ${running.size} servers run in this process; pass the handle of the one you mean`,
  );
}

/**
 * The tools the server exposes: excluded ones (`mcp.excludeTools`) left out, dynamic tools
 * resolved for a caller without identity (tools that depend on the caller see none).
 */
export async function getTools(server?: McpServerHandle): Promise<ITool[]> {
  const handle = theServer('getTools', server);
  const transport = handle.config.mcp.transportType === 'stdio' ? 'stdio' : 'http';
  return handle.core.registry.listTools({ requestId: 'getTools', era: '2025', transport, clientCapabilities: {} });
}

/**
 * Sends notifications/resources/updated for `uri`: on the given server, or on every running
 * server that declares resources.subscribe (each also tells its other instances through its
 * bus). Resolves with how many connections of this process were notified; rejects when the
 * given server, or every running one, declares no subscribe.
 */
export async function notifyResourceUpdated(uri: string, server?: McpServerHandle): Promise<number> {
  if (server) return server.notifyResourceUpdated(uri);
  const subscribed = [...running].filter((h) => h.core.declared.subscribe);
  if (subscribed.length === 0) {
    throw new Error(
      running.size === 0
        ? 'notifyResourceUpdated(): no server is running in this process'
        : 'notifyResourceUpdated(): no running server declares resources.subscribe (McpServerData.capabilities.subscribe)',
    );
  }
  const counts = await Promise.all(subscribed.map((h) => h.notifyResourceUpdated(uri)));
  return counts.reduce((a, b) => a + b, 0);
}

/** The server's task store (`mcp.tasks.store`, or McpServerData.taskStore); throws when tasks are off. */
export function getTaskStore(server?: McpServerHandle): ITaskStore {
  const handle = theServer('getTaskStore', server);
  if (!handle.tasks) throw new Error('getTaskStore(): tasks are off on this server (mcp.tasks.enabled: false)');
  return handle.tasks.store;
}

/** Forgets every task of the server's store (tests between cases); only stores with clear() can, the in-memory one does. */
export async function resetTaskStore(server?: McpServerHandle): Promise<void> {
  const store = getTaskStore(server);
  if (!store.clear) throw new Error('resetTaskStore(): this task store cannot be cleared (it has no clear()); the in-memory store can');
  await store.clear();
}
