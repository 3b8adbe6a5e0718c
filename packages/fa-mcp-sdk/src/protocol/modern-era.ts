/**
 * What serving the 2026-07-28 revision needs once per process: the HMAC codec
 * of `requestState` (the SDK's createRequestStateCodec) and the cache hints,
 * both from configuration.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerOptions } from '@modelcontextprotocol/server';
import type { AppConfig } from '../config/app-config.js';
import type { CoreLogger } from '../core/core.js';
import { CACHEABLE_METHODS } from '../config/sections/protocol-2026.js';

export type CacheHints = NonNullable<ServerOptions['cacheHints']>;

export interface ModernEraSupport {
  codec: RequestStateCodec<unknown>;
  /** Rounds of client input one request may take. */
  maxRounds: number;
  /** Per-operation hints for the SDK; undefined keeps the SDK default (ttlMs 0, private). */
  cacheHints?: CacheHints;
}

export interface ModernEraOptions {
  requestState: AppConfig['mcp']['requestState'];
  cacheHints: AppConfig['mcp']['cacheHints'];
  logger: CoreLogger;
  /**
   * Why more than one process may serve the rounds of one request (config/shared-instances.ts), or
   * undefined (stdio, or one local instance): only then is a missing secret worth a warning.
   */
  sharedBecause?: string | undefined;
}

export function createModernEraSupport(opts: ModernEraOptions): ModernEraSupport {
  const { secret, ttlMs, maxRounds } = opts.requestState;
  let key: string | Uint8Array = secret;
  if (!secret) {
    key = randomBytes(32);
    const note = 'mcp.requestState.secret is not set: requestState is signed with a random key of this process, so another instance cannot read it';
    if (opts.sharedBecause) {
      opts.logger.warn(
        { key: 'mcp.requestState.secret', because: opts.sharedBecause },
        `${note}; set MCP_REQUEST_STATE_SECRET, the same on every instance (several may serve this endpoint: ${opts.sharedBecause})`,
      );
    } else opts.logger.debug({ key: 'mcp.requestState.secret' }, note);
  }
  const codec = createRequestStateCodec<unknown>({ key, ttlSeconds: Math.ceil(ttlMs / 1000) });
  const support: ModernEraSupport = { codec, maxRounds };
  const hints = cacheHintsFrom(opts.cacheHints);
  if (hints) support.cacheHints = hints;
  return support;
}

/** The SDK's per-operation hints: the configured default, overridden per method. */
export function cacheHintsFrom(cfg: AppConfig['mcp']['cacheHints']): CacheHints | undefined {
  const isDefault = cfg.ttlMs === 0 && cfg.cacheScope === 'private' && Object.keys(cfg.perMethod).length === 0;
  if (isDefault) return undefined;
  const hints: CacheHints = {};
  for (const method of CACHEABLE_METHODS) {
    const own = cfg.perMethod[method] ?? {};
    hints[method] = { ttlMs: own.ttlMs ?? cfg.ttlMs, cacheScope: own.cacheScope ?? cfg.cacheScope };
  }
  return hints;
}
