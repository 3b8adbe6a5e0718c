/**
 * The MCP request methods the framework knows, in one table: the pipeline's
 * method type (pipeline.ts `McpMethod`), the metrics' label set
 * (ops/metrics.ts), the methods the core serves through an SDK server
 * instance's handlers (protocol/core-methods.ts) and the methods that take
 * 2026-07-28 cache hints (config/sections/protocol-2026.ts) are derived from
 * it, so they cannot drift apart. Extension methods (skills, MCP Apps, a
 * consumer's own) are not listed: they are plain strings to the pipeline and
 * `unknown` to the metrics.
 */
interface MethodTraits {
  /** The core registers its handler of the method on an SDK server instance (the SDK, the task dispatch or extensions serve the others). */
  core?: true;
  /** A 2026-07-28 answer of the method carries cache hints (`ttlMs`, `cacheScope`). */
  cacheable?: true;
}

/** In the order the core registers its handlers. */
const METHODS = {
  initialize: {},
  ping: {},
  'server/discover': { cacheable: true },
  'logging/setLevel': { core: true },
  'tools/list': { core: true, cacheable: true },
  'tools/call': { core: true },
  'prompts/list': { core: true, cacheable: true },
  'prompts/get': { core: true },
  'resources/list': { core: true, cacheable: true },
  'resources/templates/list': { core: true, cacheable: true },
  'resources/read': { core: true, cacheable: true },
  'resources/subscribe': { core: true },
  'resources/unsubscribe': { core: true },
  'completion/complete': { core: true },
  'subscriptions/listen': {},
  'tasks/get': {},
  'tasks/list': {},
  'tasks/result': {},
  'tasks/cancel': {},
  'tasks/update': {},
  // the Events extension (io.modelcontextprotocol/events): served by protocol/events-methods.ts
  'events/list': {},
  'events/poll': {},
  'events/stream': {},
  'events/subscribe': {},
  'events/unsubscribe': {},
} as const satisfies Record<string, MethodTraits>;

export type KnownMcpMethod = keyof typeof METHODS;

type WithTrait<K extends keyof MethodTraits> = { [M in KnownMcpMethod]: (typeof METHODS)[M] extends Record<K, true> ? M : never }[KnownMcpMethod];

export const MCP_METHODS = Object.keys(METHODS) as KnownMcpMethod[];

const having = <K extends keyof MethodTraits>(trait: K): Array<WithTrait<K>> => MCP_METHODS.filter((m): m is WithTrait<K> => (METHODS[m] as MethodTraits)[trait] === true);

/** The methods whose handler the core registers on an SDK server instance, in the order it registers them. */
export const CORE_HANDLED_METHODS = having('core');

/** The methods whose 2026-07-28 answers carry cache hints. */
export const CACHEABLE_METHODS = having('cacheable');
