/**
 * `DEBUG=mcp:*` channels (the `debug` package): off unless the DEBUG
 * environment variable (or `debug.enable()`) names them, and then written to
 * stderr, which is safe on stdio.
 *
 *   mcp:handshake     initialize, server/discover, notifications/initialized
 *   mcp:rpc           every request and its answer, with duration
 *   mcp:tool          tools/list and tools/call
 *   mcp:resource      resources/* and resource notifications
 *   mcp:prompt        prompts/* and completion/complete
 *   mcp:notification  notifications in both directions
 *   mcp:auth          authentication and authorization failures
 */
import createDebug, { type Debugger } from 'debug';
import { DEBUG_CHANNELS, type DebugChannel } from './debug-channel-names.js';

export { DEBUG_CHANNELS, type DebugChannel };

export type DebugChannels = Record<DebugChannel, Debugger>;

/** The channels under one namespace prefix (default `mcp`). */
export function createDebugChannels(prefix = 'mcp'): DebugChannels {
  const out = {} as DebugChannels;
  for (const name of DEBUG_CHANNELS) out[name] = createDebug(`${prefix}:${name}`);
  return out;
}

/** The channel a method's traffic belongs to, besides `rpc`. */
export function channelOfMethod(method: string): DebugChannel | undefined {
  if (method === 'initialize' || method === 'server/discover' || method === 'notifications/initialized') return 'handshake';
  if (method.startsWith('tools/') || method === 'notifications/tools/list_changed') return 'tool';
  if (method.startsWith('resources/') || method.startsWith('notifications/resources/')) return 'resource';
  if (method.startsWith('prompts/') || method === 'completion/complete' || method.startsWith('notifications/prompts/')) return 'prompt';
  return undefined;
}
