/**
 * What an SDK server instance is constructed with (implementation info,
 * options: instructions, the requestState check, cache hints; capabilities),
 * built once per core and kind of instance and shared by all of them. The SDK
 * keeps both objects for an instance's whole life and never changes them, so a
 * 2025-era session holds a reference instead of its own copy.
 *
 * The cache is derived data of the core (its registry and declared
 * capabilities are fixed at start), kept beside it in a WeakMap: it goes with
 * the core and holds nothing of any request or connection.
 */
import type { Implementation, ServerCapabilities, ServerContext, ServerOptions } from '@modelcontextprotocol/server';
import type { Core } from '../core/core.js';
import type { ProtocolEra } from '../core/request-context.js';
import { serverCapabilities } from './capabilities.js';
import type { ModernEraSupport } from './modern-era.js';
import { serverImplementation } from './server-identity.js';

export interface ServerArgs {
  info: Implementation;
  /** Without capabilities: see `capabilities`. */
  options: ServerOptions;
  /**
   * Registered right after construction (`registerCapabilities`), not passed to
   * the constructor: constructed with a list capability, McpServer installs its
   * own list handlers (replaced by the core's at once) and merges a fresh
   * object per list into the instance's capabilities; registered on an empty
   * set, every member stays this shared object and the instance holds only
   * the top-level one.
   */
  capabilities: ServerCapabilities;
}

export interface ServerArgsRequest {
  era: ProtocolEra;
  /** Whether tasks are served (`mcp.tasks.enabled`). */
  tasks: boolean;
  modern: ModernEraSupport;
  /** Protocol revisions the instance accepts (the SDK's default when absent). */
  supportedProtocolVersions?: string[];
}

const shared = new WeakMap<Core, WeakMap<ModernEraSupport, Map<string, ServerArgs>>>();

export function serverArgs(core: Core, req: ServerArgsRequest): ServerArgs {
  let byModern = shared.get(core);
  if (!byModern) shared.set(core, (byModern = new WeakMap()));
  let byKind = byModern.get(req.modern);
  if (!byKind) byModern.set(req.modern, (byKind = new Map()));
  const key = `${req.era}|${req.tasks}|${req.supportedProtocolVersions?.join(',') ?? ''}`;
  let args = byKind.get(key);
  if (!args) {
    const { modern } = req;
    args = {
      info: serverImplementation(core),
      capabilities: serverCapabilities(core, req.era, req.tasks),
      options: {
        ...(core.instructions ? { instructions: core.instructions } : {}),
        // The SDK refuses a tampered or expired requestState with -32602 before any handler runs.
        requestState: { verify: (state: string, ctx: ServerContext) => modern.codec.verify(state, ctx) },
        ...(modern.cacheHints ? { cacheHints: modern.cacheHints } : {}),
        ...(req.supportedProtocolVersions ? { supportedProtocolVersions: req.supportedProtocolVersions } : {}),
      },
    };
    byKind.set(key, args);
  }
  return args;
}
