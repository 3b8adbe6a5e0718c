/**
 * Loads a consumer's server definition from a module: an export that is `McpServerData`, or a
 * function (sync or async) returning it. The module must only define the server, not start it
 * (keep `initMcpServer()` in a separate start file).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpServerData } from '../init-mcp-server.js';

/** Exports looked up, in order, when no name is given. */
export const DEFAULT_SERVER_EXPORTS = ['default', 'serverData', 'mcpServerData', 'createServerData'] as const;

const DATA_KEYS = ['tools', 'toolHandler', 'prompts', 'resources', 'resourceTemplates', 'serverInfo', 'instructions', 'agentBrief'];

export interface LoadServerModuleOptions {
  /** Name of the export; default: the first of `DEFAULT_SERVER_EXPORTS` the module has. */
  exportName?: string;
  /** Base of a relative `modulePath`; default `process.cwd()`. */
  cwd?: string;
}

export interface LoadedServerModule {
  data: McpServerData;
  /** The absolute file and the export it came from. */
  file: string;
  exportName: string;
}

function looksLikeServerData(value: unknown): value is McpServerData {
  return !!value && typeof value === 'object' && !Array.isArray(value) && DATA_KEYS.some((k) => k in (value as object));
}

export async function loadServerModule(modulePath: string, options: LoadServerModuleOptions = {}): Promise<LoadedServerModule> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(options.cwd ?? process.cwd(), modulePath);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    const hint = /\.ts$/.test(file) ? ' (point at the built .js file, or run node with a TypeScript loader)' : '';
    throw new Error(`cannot import ${file}${hint}: ${(err as Error).message}`);
  }
  const names = options.exportName ? [options.exportName] : DEFAULT_SERVER_EXPORTS;
  const exportName = names.find((n) => mod[n] !== undefined);
  if (!exportName) {
    const available = Object.keys(mod).sort().join(', ') || 'none';
    throw new Error(`${file} has no export ${names.map((n) => `"${n}"`).join(' or ')} (exports: ${available})`);
  }
  let value = mod[exportName];
  if (typeof value === 'function') value = await (value as () => unknown)();
  if (!looksLikeServerData(value)) {
    throw new Error(`${file}: export "${exportName}" is not McpServerData (an object with tools, prompts, resources, ...) nor a function returning it`);
  }
  return { data: value, file, exportName };
}
