/**
 * Where resource updates and list changes go: the server instances serving
 * connections right now (2025-era sessions, stdio of either era, legacy SSE),
 * with the resource URIs each subscribed to, and the change-event bus the
 * 2026-07-28 HTTP handler's `subscriptions/listen` streams read. Each
 * connection's entry is also its session's handle (live-session.ts), found by
 * id for `handle.session(id)`; with a shared session store, a session this
 * instance holds no copy of is reached through the store (RemoteSessions).
 */
import { randomUUID } from 'node:crypto';
import type { McpServer, ServerEventBus } from '@modelcontextprotocol/server';
import type { DeclaredCapabilities, ListKind } from '../core/declared-capabilities.js';
import { NOTHING_DECLARED } from '../core/declared-capabilities.js';
import type { CoreLogger } from '../core/logger-types.js';
import type { ProtocolEra } from '../core/request-context.js';
import type { IMcpSession } from '../core/session-types.js';
import type { LogLevel } from '../core/types.js';
import { LiveServer, RemoteSession, type RemoteSessions, type SessionRoom } from './live-session.js';

export type { ListKind };
export { LiveServer };

export interface LiveServersOptions {
  /** What the server declares (a session handle sends nothing the server does not declare). */
  declared?: DeclaredCapabilities;
  /** Whether a static resource or a template serves a URI (a session resource may not take it). */
  served?: (uri: string) => boolean;
  logger?: CoreLogger;
  /** The SDK's bus the 2026-07-28 listen streams read (the HTTP entry makes it when absent). */
  bus?: ServerEventBus;
}

export class LiveServers implements SessionRoom {
  /** The connections served here, by session id (a stdio connection has one minted). */
  private readonly servers = new Map<string, LiveServer>();
  /** Close listeners of sessions (`session.onClose`), made on the first one. */
  private watchers: Map<string, Set<() => void>> | undefined;
  /**
   * Read by the 2026-07-28 HTTP handler's subscriptions/listen streams, which give it (the SDK's
   * in-memory bus: a stdio server, which has none, starts without loading the SDK).
   */
  bus: ServerEventBus | undefined;
  /** Sessions shared through the store (mcp.sessions.store: postgres), set by the HTTP sessions (session-share.ts). */
  remote: RemoteSessions | undefined;
  readonly declared: DeclaredCapabilities;
  private readonly servedBy: (uri: string) => boolean;
  private readonly logger: CoreLogger | undefined;

  constructor(opts: LiveServersOptions = {}) {
    this.bus = opts.bus;
    this.declared = opts.declared ?? NOTHING_DECLARED;
    this.servedBy = opts.served ?? (() => false);
    this.logger = opts.logger;
  }

  /** Tracks a connection's server instance; `id` is its session id (one is minted for a connection without). */
  add(server: McpServer, era: ProtocolEra, opts: { id?: string; logLevel?: () => LogLevel | undefined } = {}): LiveServer {
    const live = new LiveServer(server, era, opts.id ?? randomUUID(), opts.logLevel ?? noLevel, this);
    this.servers.set(live.id, live);
    return live;
  }

  /** The connection closed: `ended` when its session ended with it (not a shared copy closing here only). */
  remove(live: LiveServer, ended = true): void {
    if (this.servers.get(live.id) === live) this.servers.delete(live.id);
    live.detach(ended);
    if (!live.open) this.ended(live.id);
  }

  get size(): number {
    return this.servers.size;
  }

  /**
   * The session `id`: the connection served here, or, with a shared store, the session any instance
   * serves (undefined when the store has none). 2026-07-28 connections have no session.
   */
  async session(id: string): Promise<IMcpSession | undefined> {
    const live = this.servers.get(id);
    if (live) return live.era === '2025' ? live : undefined;
    const remote = this.remote;
    if (!remote || !(await remote.state(id))) return undefined;
    return new RemoteSession(id, this, remote);
  }

  served(uri: string): boolean {
    return this.servedBy(uri);
  }

  ended(id: string): void {
    this.servers.get(id)?.end();
    const listeners = this.watchers?.get(id);
    if (!listeners) return;
    this.watchers?.delete(id);
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        this.logger?.warn({ err, sessionId: id }, 'a session close listener threw');
      }
    }
  }

  watch(id: string, listener: () => void): () => void {
    const watchers = (this.watchers ??= new Map());
    let set = watchers.get(id);
    if (!set) watchers.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      const current = watchers.get(id);
      if (!current?.delete(listener) || current.size > 0) return;
      watchers.delete(id);
    };
  }

  failed(err: unknown, id: string): void {
    this.logger?.debug({ err, sessionId: id }, 'a message to a session could not be sent');
  }

  /** Sends notifications/resources/updated; returns how many connections it was sent on (listen streams not counted). */
  async resourceUpdated(uri: string): Promise<number> {
    this.bus?.publish({ kind: 'resource_updated', uri });
    let sent = 0;
    await Promise.all(
      [...this.servers.values()].map(async (live) => {
        // A 2026-07-28 stdio connection routes the notification to the listen streams whose filter names the URI.
        const wanted = live.era === '2026' || live.subscribed?.has(uri) === true;
        const server = live.server;
        if (!wanted || !server?.isConnected()) return;
        try {
          await server.server.sendResourceUpdated({ uri });
          sent++;
        } catch {
          // a connection closing underneath us is not an error of the publisher
        }
      }),
    );
    return sent;
  }

  async listChanged(kind: ListKind): Promise<void> {
    this.bus?.publish({ kind: `${kind}_list_changed` });
    await Promise.all(
      [...this.servers.values()].map(async (live) => {
        const server = live.server;
        if (!server?.isConnected()) return;
        try {
          await server.server.notification({ method: `notifications/${kind}/list_changed` });
        } catch {
          // ignore closed connections
        }
      }),
    );
  }
}

const noLevel = (): LogLevel | undefined => undefined;
