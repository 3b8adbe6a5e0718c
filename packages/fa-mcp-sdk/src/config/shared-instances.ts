/**
 * Whether a configuration says that several instances may serve the same clients: state that
 * instances share (a store or bus on PostgreSQL), Consul registration, or NODE_ENV=production.
 * A setting that matters only across instances (mcp.requestState.secret) warns only then, so a
 * local start stays quiet.
 */
import type { AppConfig } from './app-config.js';

/** Why several instances may serve this server's clients (the first reason found), or undefined. */
export function sharedInstancesReason(config: AppConfig, nodeEnv: string): string | undefined {
  const { mcp } = config;
  const shared: Array<[string, boolean]> = [
    ['mcp.sessions.store is postgres', mcp.sessions.store === 'postgres'],
    ['mcp.notifications.bus is postgres', mcp.notifications.bus === 'postgres'],
    ['mcp.tasks.store is postgres', mcp.tasks.enabled && mcp.tasks.store === 'postgres'],
    ['mcp.resumability.store is postgres', mcp.resumability.store === 'postgres'],
    ['mcp.rateLimit.store is postgres', mcp.rateLimit.enabled && mcp.rateLimit.store === 'postgres'],
    ['mcp.mintedResources.store is postgres', mcp.mintedResources.enabled && mcp.mintedResources.store === 'postgres'],
    ['consul.enabled is true', config.consul.enabled],
    ['NODE_ENV is production', nodeEnv === 'production'],
  ];
  return shared.find(([, yes]) => yes)?.[0];
}
