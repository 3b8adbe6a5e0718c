/** The committed contract file: everything a client can learn about a server without calling it. */
import type { JsonObject } from '../core/types.js';

export const SNAPSHOT_FORMAT = 'fa-mcp-contract/1';

export interface HttpEndpoint {
  method: string;
  path: string;
}

export interface ContractSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  /** The protocol revision the snapshot was taken on. */
  protocolVersion: string;
  serverInfo: JsonObject;
  capabilities: JsonObject;
  instructions?: string;
  /** tools/list entries, by name. */
  tools: JsonObject[];
  /** prompts/list entries, by name. */
  prompts: JsonObject[];
  /** resources/list entries, by uri. */
  resources: JsonObject[];
  /** resources/templates/list entries, by uriTemplate. */
  resourceTemplates: JsonObject[];
  /** HTTP routes of the server (absent when they were not read, e.g. a stdio-only server). */
  endpoints?: HttpEndpoint[];
}

/** The key that identifies an item of each list across two snapshots. */
export const ITEM_KEYS = {
  tools: 'name',
  prompts: 'name',
  resources: 'uri',
  resourceTemplates: 'uriTemplate',
} as const;

export type ListKind = keyof typeof ITEM_KEYS;
export const LIST_KINDS = Object.keys(ITEM_KEYS) as ListKind[];

export const KIND_NOUN: Record<ListKind, string> = {
  tools: 'tool',
  prompts: 'prompt',
  resources: 'resource',
  resourceTemplates: 'resource template',
};
