/**
 * What a 2025-era session is, kept where every instance can read it (the
 * postgres store, `mcp.sessions.store: postgres`): enough to rebuild the
 * session on an instance that never saw it. With the memory default there is
 * no store: a session lives in the process that opened it.
 */
import type { ISessionResource } from '../core/session-types.js';

/** What the client sent in `initialize`, replayed when another instance restores the session. */
export interface SessionInitialize {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: Record<string, unknown>;
  [key: string]: unknown;
}

/** One change during a session's life: logging/setLevel, resources/subscribe or resources/unsubscribe. */
export type SessionChange = { logLevel: string } | { subscribe: string } | { unsubscribe: string };

export interface StoredSession {
  id: string;
  /** The authenticated subject that opened it (session-owner.ts); undefined when anonymous. */
  owner?: string;
  /** Who it counts against for mcp.sessions.maxPerCaller. */
  caller: string;
  /** The protocol revision negotiated at initialize. */
  protocolVersion: string;
  initialize: SessionInitialize;
  logLevel?: string;
  subscriptions: string[];
  createdAt: number;
  lastSeen: number;
  /** lastSeen plus the idle timeout: past it the session is gone everywhere. */
  expiresAt: number;
  /** The instance whose copy delivers what the server sends outside requests (session-share.ts). */
  holder?: string;
}

export interface ISessionStore {
  create(session: StoredSession): Promise<void>;
  /** The session, undefined when unknown or expired at `now`. */
  get(id: string, now?: number): Promise<StoredSession | undefined>;
  /** Records a request at `now`: last seen, and expiry `idleTimeoutMs` later. */
  touch(id: string, now: number, idleTimeoutMs: number): Promise<void>;
  update(id: string, change: SessionChange): Promise<void>;
  /** Makes `holder` the session's holder; with `from`, only while `from` is (true when it took). */
  claimHolder(id: string, holder: string, from?: string): Promise<boolean>;
  /** True when there was a session to delete (its resources go with it). */
  delete(id: string): Promise<boolean>;
  /** The session's own resources (`session.resources`), in the order they were added; [] when it has none or is gone. */
  resources(id: string): Promise<ISessionResource[]>;
  resource(id: string, uri: string): Promise<ISessionResource | undefined>;
  /** Adds or replaces one; false when the session is gone. */
  putResource(id: string, resource: ISessionResource): Promise<boolean>;
  /** True when there was one to delete. */
  deleteResource(id: string, uri: string): Promise<boolean>;
  /** Deletes the sessions expired at `now`; returns how many. */
  sweep(now?: number): Promise<number>;
}
