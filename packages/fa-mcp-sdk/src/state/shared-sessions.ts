/**
 * The state runtime's part of `mcp.sessions.store: postgres`: the session rows
 * (migrated at start, expired rows swept) and the bus channel on which the
 * instances tell each other about sessions (ended, changed, stream moved, a
 * message for the stream's holder). The HTTP side (transport/http/session-share.ts)
 * uses both.
 */
import type { AppConfig } from '../config/schema.js';
import { ConfigError } from '../config/config-error.js';
import type { Databases } from '../db/databases.js';
import type { INotificationBus } from './notification-bus.js';
import type { ISessionStore } from './session-store.js';
import { PostgresSessionStore } from './session-store-postgres.js';

export interface SharedSessions {
  store: ISessionStore;
  bus: INotificationBus;
  /** The bus channel of session events (per schema, like the change channel). */
  channel: string;
}

export interface SharedSessionsInput {
  config: AppConfig['mcp'];
  databases: Databases;
  bus: INotificationBus;
  /** The change channel of this runtime; the session channel is named after it. */
  channel: string;
  /** The bus came from the consumer (McpServerData.notificationBus), not from mcp.notifications. */
  ownBus: boolean;
  every: (ms: number, what: string, fn: () => Promise<number>) => void;
}

/** The configuration mcp.sessions.store: postgres needs, checked before any store connects: a ConfigError naming what is missing. */
export function checkSharedSessions(config: AppConfig['mcp'], databases: Databases, ownBus: boolean): void {
  const { sessions, notifications } = config;
  if (sessions.store !== 'postgres') return;
  const issues = [];
  if (!databases.has(sessions.database)) {
    const env = sessions.database === 'main' ? 'DB_MAIN_URL' : `db.postgres.dbs.${sessions.database}.url`;
    issues.push({ path: 'mcp.sessions.store', message: `"postgres" needs the database "${sessions.database}": set ${env}` });
  }
  if (!ownBus && notifications.bus !== 'postgres') {
    issues.push({ path: 'mcp.sessions.store', message: '"postgres" needs mcp.notifications.bus: postgres (MCP_NOTIFICATIONS_BUS=postgres), so instances hear of each other\'s sessions' });
  }
  if (issues.length > 0) throw new ConfigError(issues);
}

export async function sharedSessionsOf(input: SharedSessionsInput): Promise<SharedSessions | undefined> {
  const { sessions } = input.config;
  if (sessions.store !== 'postgres') return undefined;
  checkSharedSessions(input.config, input.databases, input.ownBus);
  const store = new PostgresSessionStore(await input.databases.get(sessions.database).pool());
  await store.migrate();
  input.every(Math.max(1000, Math.min(60_000, Math.floor(sessions.idleTimeoutMs / 4))), 'sessions', () => store.sweep());
  return { store, bus: input.bus, channel: `mcp-sessions${input.channel.slice('mcp-changes'.length)}` };
}
