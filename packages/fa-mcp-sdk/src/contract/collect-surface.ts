/**
 * Reads a server's whole surface through a connected MCP client: the initialize result and every
 * page of tools, prompts, resources and resource templates. The client is structural (the SDK's
 * `Client` fits), so this module does not depend on the SDK.
 */
import type { JsonObject } from '../core/types.js';
import { sortKeys } from './canonical-json.js';
import { ITEM_KEYS, SNAPSHOT_FORMAT, type ContractSnapshot, type HttpEndpoint, type ListKind } from './snapshot-types.js';

type Page<K extends string> = { [key in K]: unknown[] } & { nextCursor?: string | undefined };

export interface SurfaceClient {
  getServerVersion(): object | undefined;
  getServerCapabilities(): object | undefined;
  getInstructions(): string | undefined;
  getNegotiatedProtocolVersion(): string | undefined;
  listTools(params?: { cursor?: string }): Promise<Page<'tools'>>;
  listPrompts(params?: { cursor?: string }): Promise<Page<'prompts'>>;
  listResources(params?: { cursor?: string }): Promise<Page<'resources'>>;
  listResourceTemplates(params?: { cursor?: string }): Promise<Page<'resourceTemplates'>>;
}

/** Longest list followed, so a server whose cursors never end cannot hang the command. */
const MAX_PAGES = 1000;

async function readAll<K extends ListKind>(key: K, list: (params?: { cursor?: string }) => Promise<Page<K>>): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list(cursor ? { cursor } : undefined);
    items.push(...(result[key] as JsonObject[]));
    cursor = result.nextCursor;
    if (!cursor) return items;
  }
  throw new Error(`${key}: more than ${MAX_PAGES} pages; the server's cursors do not end`);
}

function byKey(kind: ListKind, items: JsonObject[]): JsonObject[] {
  const key = ITEM_KEYS[kind];
  return [...items].sort((a, b) => String(a[key]).localeCompare(String(b[key]), 'en'));
}

export async function collectSurface(client: SurfaceClient, endpoints?: HttpEndpoint[]): Promise<ContractSnapshot> {
  const capabilities = (client.getServerCapabilities() ?? {}) as JsonObject;
  const has = (name: string) => capabilities[name] !== undefined;
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    has('tools') ? readAll('tools', (p) => client.listTools(p)) : [],
    has('prompts') ? readAll('prompts', (p) => client.listPrompts(p)) : [],
    has('resources') ? readAll('resources', (p) => client.listResources(p)) : [],
    has('resources') ? readAll('resourceTemplates', (p) => client.listResourceTemplates(p)) : [],
  ]);
  const instructions = client.getInstructions();
  const snapshot: ContractSnapshot = {
    format: SNAPSHOT_FORMAT,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
    serverInfo: (client.getServerVersion() ?? {}) as JsonObject,
    capabilities,
    ...(instructions ? { instructions } : {}),
    tools: byKey('tools', tools),
    prompts: byKey('prompts', prompts),
    resources: byKey('resources', resources),
    resourceTemplates: byKey('resourceTemplates', resourceTemplates),
    ...(endpoints ? { endpoints: sortEndpoints(endpoints) } : {}),
  };
  return sortKeys(snapshot);
}

export function sortEndpoints(endpoints: HttpEndpoint[]): HttpEndpoint[] {
  const seen = new Set<string>();
  const out: HttpEndpoint[] = [];
  for (const e of endpoints) {
    const id = `${e.method} ${e.path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ method: e.method, path: e.path });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path, 'en') || a.method.localeCompare(b.method, 'en'));
}
