/**
 * What a server declares beyond the lists it serves: `logging`, `listChanged`
 * per list, `resources.subscribe`. Decided once at start
 * (protocol/capabilities.ts derives it from the server and `mcp.capabilities`)
 * and read by every era's handshake and by whatever depends on a flag.
 */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** The consumer's word on what its server does (`McpServerData.capabilities`); the config can override each. */
export interface ICapabilitiesOptions {
  /** Handlers send log messages to the client (`client.log()`); declares `logging`. */
  logging?: boolean;
  /** The lists that change while sessions run (you call `notifyListChanged` for them); true: every list. */
  listChanged?: boolean | ListKind[];
  /** Resources change and you call `notifyResourceUpdated`; declares `resources.subscribe`. */
  subscribe?: boolean;
}

export interface DeclaredCapabilities {
  logging: boolean;
  listChanged: Record<ListKind, boolean>;
  subscribe: boolean;
}

/** Nothing beyond the lists (a core built without a derivation). */
export const NOTHING_DECLARED: DeclaredCapabilities = Object.freeze({
  logging: false,
  listChanged: Object.freeze({ tools: false, prompts: false, resources: false }),
  subscribe: false,
});

/** Throws where a change notification would go out for something the server does not declare. */
export function assertNotifiable(declared: DeclaredCapabilities, what: ListKind | 'resource'): void {
  if (what === 'resource') {
    if (!declared.subscribe) {
      throw new Error(
        'notifyResourceUpdated: the server does not declare resources.subscribe; declare it with McpServerData.capabilities.subscribe (or mcp.capabilities.subscribe: true)',
      );
    }
  } else if (!declared.listChanged[what]) {
    throw new Error(
      `notifyListChanged('${what}'): the server does not declare ${what}.listChanged; name the list in McpServerData.capabilities.listChanged (or set mcp.capabilities.listChanged: true)`,
    );
  }
}
