/**
 * Several instances: with a main database configured (DB_MAIN_URL or DATABASE_URL), every state
 * store and the notification bus default to PostgreSQL, so any instance serves any 2025-era
 * session (its resources, level and subscriptions), any task, minted resource and event cursor
 * (MCP Events: occurrences, webhook subscriptions and their outbox), and what
 * one instance sends reaches the client on whichever instance holds its stream. A store whose
 * own variable is set (MCP_SESSIONS_STORE=memory, …) keeps that choice.
 */
const STORES: ReadonlyArray<[path: string[], env: string]> = [
  [['mcp', 'sessions', 'store'], 'MCP_SESSIONS_STORE'],
  [['mcp', 'notifications', 'bus'], 'MCP_NOTIFICATIONS_BUS'],
  [['mcp', 'resumability', 'store'], 'MCP_RESUMABILITY_STORE'],
  [['mcp', 'tasks', 'store'], 'MCP_TASKS_STORE'],
  [['mcp', 'mintedResources', 'store'], 'MCP_MINTED_RESOURCES_STORE'],
  [['mcp', 'events', 'store'], 'MCP_EVENTS_STORE'],
];

type Tree = Record<string, unknown>;

/** `config` with the PostgreSQL stores added where the environment names a database and no store. */
export function sharedStateOverrides(env: NodeJS.ProcessEnv | Record<string, string | undefined>, config: Tree = {}): Tree {
  if (!env.DB_MAIN_URL && !env.DATABASE_URL) return config;
  const out: Tree = structuredClone(config);
  for (const [path, variable] of STORES) {
    if (env[variable]) continue;
    let node = out;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Tree;
    }
    const leaf = path[path.length - 1] as string;
    if (node[leaf] === undefined) node[leaf] = 'postgres';
  }
  return out;
}
