/**
 * 2025-era sessions shared by every instance (`mcp.sessions.store: postgres`).
 * The row is written at initialize and kept current (log level and
 * subscriptions at once, last seen at most every few seconds); an instance that
 * receives an id it does not hold restores the session from it, once however
 * many requests miss together. The instances tell each other over the
 * notification bus when a session ends (each closes its copy), changes (each
 * copy applies it), or its GET stream moves.
 *
 * What the server sends outside any request (resource updates, list changes,
 * task status, logs of background work) is delivered by one copy only: the one
 * holding the client's GET stream (or, while the client has none, the one that
 * held it last, which keeps it for Last-Event-ID replay). Resource updates and
 * list changes reach every instance anyway (change-relay.ts), so the others
 * drop theirs; anything else they hand to the holder over the bus. What belongs
 * to a request (progress, requests to the client) stays with the request.
 *
 * It is also how session handles (protocol/live-session.ts, RemoteSessions)
 * reach a session this instance holds no copy of, or whose stream it does not
 * hold: the stored level and subscriptions decide, the session's own resources
 * are rows of the store, and what a handle sends is handed to the holder.
 */
import type { JSONRPCMessage } from '../../protocol/sdk-server.js';
import type { WireFilter } from '../../protocol/wire-adapter.js';
import { randomUUID } from 'node:crypto';
import type { CoreLogger } from '../../core/core.js';
import type { RemoteSessions, SessionMessage, SessionResourceKeeper } from '../../protocol/live-session.js';
import type { SessionStateChange } from '../../protocol/server-factory.js';
import type { SessionInitialize, StoredSession } from '../../state/session-store.js';
import type { SharedSessions } from '../../state/shared-sessions.js';
import type { Session, SessionManager, SharedCopy, SharedSessionClock } from './session-manager.js';

export interface SessionShareOptions {
  shared: SharedSessions;
  idleTimeoutMs: number;
  logger: CoreLogger;
  /** Protocol revisions the transport accepts (the negotiated one is stored). */
  supportedProtocolVersions: readonly string[];
  /** A session ended on another instance (its close listeners run here: protocol/live-servers.ts). */
  onEnded?: (id: string) => void;
}

type Restored = Session | 'unknown' | 'full';

/** What a copy needs of its session's transport: sending past the routing, and closing the GET stream. */
export interface SessionSendTarget {
  send(message: JSONRPCMessage): Promise<void>;
  closeStandaloneSSEStream(): void;
}

/** The longest an ended session waits for its event to come back over the bus. */
const ECHO_WAIT_MS = 1000;

const isBroadcast = (message: JSONRPCMessage): boolean => {
  const method = (message as { method?: unknown }).method;
  return method === 'notifications/resources/updated' || (typeof method === 'string' && method.endsWith('/list_changed'));
};

export class SessionShare implements SharedSessionClock, RemoteSessions {
  /** Marks what this instance published, so it does not act on it twice. */
  readonly origin = randomUUID();
  private readonly restoring = new Map<string, Promise<Restored>>();
  private readonly touchEveryMs: number;
  private readonly unsubscribe: () => void;
  /** Events of ours waiting to come back over the bus (then every instance has been sent them). */
  private readonly echoes = new Map<string, () => void>();
  private sessions?: SessionManager;
  /** Sessions restored from the store on this instance so far. */
  restored = 0;

  constructor(private readonly opts: SessionShareOptions) {
    this.touchEveryMs = Math.max(100, Math.min(5000, Math.floor(opts.idleTimeoutMs / 4)));
    this.unsubscribe = opts.shared.bus.subscribe(opts.shared.channel, (p) => {
      if (p.origin === this.origin) {
        if (typeof p.echo === 'string') this.echoes.get(p.echo)?.();
        return;
      }
      if (typeof p.id !== 'string') return;
      this.heard(p.id, p).catch((err: unknown) => opts.logger.warn({ err }, 'could not act on a session event of another instance'));
    });
  }

  /** The manager whose sessions this shares (built with this as its clock). */
  attach(sessions: SessionManager): void {
    this.sessions = sessions;
  }

  touched(session: Session, now: number): void {
    const copy = session.shared;
    if (!copy || now - copy.storedAt < this.touchEveryMs) return;
    copy.storedAt = now;
    this.opts.shared.store.touch(session.id, now, this.opts.idleTimeoutMs).catch((err: unknown) => this.opts.logger.warn({ err, sessionId: session.id }, 'could not record a session as seen'));
  }

  async lastSeen(session: Session): Promise<number | undefined> {
    return (await this.opts.shared.store.get(session.id, 0))?.lastSeen;
  }

  /** Writes a session opened here (before its initialize is answered). */
  async record(session: Session, initialize: SessionInitialize): Promise<void> {
    const now = Date.now();
    const supported = this.opts.supportedProtocolVersions;
    const protocolVersion = supported.includes(initialize.protocolVersion) ? initialize.protocolVersion : (supported[0] as string);
    if (session.shared) session.shared.storedAt = now;
    await this.opts.shared.store.create({
      id: session.id,
      ...(session.owner !== undefined ? { owner: session.owner } : {}),
      caller: session.caller,
      protocolVersion,
      initialize,
      subscriptions: [],
      createdAt: now,
      lastSeen: now,
      expiresAt: now + this.opts.idleTimeoutMs,
      holder: this.origin,
    });
  }

  /**
   * The session `id` for a request from `owner`, restored from the store with
   * `rebuild`: 'unknown' when there is none, it expired, or it is someone
   * else's (answered like an unknown id); 'full' when no room can be made.
   */
  restore(id: string, owner: string | undefined, rebuild: (stored: StoredSession) => Promise<Session>): Promise<Restored> {
    const key = `${owner ?? ''}\u0000${id}`;
    let pending = this.restoring.get(key);
    if (!pending) {
      pending = this.load(id, owner, rebuild).finally(() => this.restoring.delete(key));
      this.restoring.set(key, pending);
    }
    return pending;
  }

  private async load(id: string, owner: string | undefined, rebuild: (stored: StoredSession) => Promise<Session>): Promise<Restored> {
    const stored = await this.opts.shared.store.get(id);
    if (!stored || stored.owner !== owner) return 'unknown';
    const sessions = this.sessions as SessionManager;
    if (!(await sessions.reserve(stored.caller))) return 'full';
    const session = await rebuild(stored);
    this.restored++;
    this.opts.logger.debug({ sessionId: id }, 'session restored from the store');
    return session;
  }

  /**
   * The session ended here (DELETE, idle timeout, eviction): gone from the store
   * and from every instance. Resolves once the bus brought the event back here,
   * so the other instances have been sent it too (at most ECHO_WAIT_MS).
   */
  async ended(id: string): Promise<void> {
    await this.opts.shared.store.delete(id).catch((err: unknown) => this.opts.logger.warn({ err, sessionId: id }, 'could not delete an ended session'));
    const echo = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.echoes.set(echo, resolve);
      timer = setTimeout(resolve, ECHO_WAIT_MS);
    });
    await this.publish({ kind: 'ended', id, echo });
    await heard;
    clearTimeout(timer);
    this.echoes.delete(echo);
  }

  /** A change of a session's state made here: stored, then told to the other copies. */
  async changed(id: string, change: SessionStateChange): Promise<void> {
    await this.opts.shared.store.update(id, change);
    await this.publish({ kind: 'changed', id, change });
  }

  /** The client opened its GET stream on this copy: it delivers from now on, the others stop. */
  tookStream(session: Session): void {
    if (!session.shared) return;
    session.shared.holdsStream = true;
    // Recorded before it is told: a copy hearing of it checks the store (bus messages may arrive out of order).
    this.opts.shared.store
      .claimHolder(session.id, this.origin)
      .then(() => this.publish({ kind: 'stream', id: session.id }))
      .catch((err: unknown) => this.opts.logger.warn({ err, sessionId: session.id }, 'could not record the holder of a session stream'));
  }

  /**
   * This instance's copy closes while the session lives on (shutdown, eviction):
   * when it was the holder, another instance's copy takes over (the first to
   * claim it in the store), so what the server sends until the client reconnects
   * its stream is kept for Last-Event-ID.
   */
  async released(session: Session): Promise<void> {
    if (!session.shared?.holdsStream) return;
    session.shared.holdsStream = false;
    await this.publish({ kind: 'released', id: session.id });
  }

  /**
   * This instance's copy of `session`, with the filter of its wire adapter
   * (protocol/wire-adapter.ts) that routes what the server sends outside
   * requests (see the header). A session opened here holds the stream until
   * the client opens one elsewhere; a restored one does not.
   */
  copyOf(transport: SessionSendTarget, session: Session, apply: SharedCopy['apply']): { copy: SharedCopy; filter: WireFilter } {
    const copy: SharedCopy = {
      holdsStream: false,
      storedAt: 0,
      apply,
      sendHere: (message) => transport.send(message),
      closeStream: () => transport.closeStandaloneSSEStream(),
    };
    const filter: WireFilter = {
      outbound: async (message, options, next) => {
        const related = options?.relatedRequestId !== undefined || 'result' in message || 'error' in message;
        if (related || copy.holdsStream) return next(message, options);
        if (isBroadcast(message)) return; // the holder's instance hears it too, and delivers it
        try {
          await this.publish({ kind: 'deliver', id: session.id, message: message as unknown as Record<string, unknown> }, true);
        } catch (err) {
          // Too large for the bus, or the bus is down: delivered (or kept) here rather than lost.
          this.opts.logger.warn({ err, sessionId: session.id }, 'could not hand a message to the instance holding the session stream');
          await next(message, options);
        }
      },
    };
    return { copy, filter };
  }

  /** RemoteSessions: the stored state a session handle checks its sends against. */
  async state(id: string): Promise<{ logLevel?: string; subscriptions: string[] } | undefined> {
    const stored = await this.opts.shared.store.get(id);
    return stored && { ...(stored.logLevel !== undefined ? { logLevel: stored.logLevel } : {}), subscriptions: stored.subscriptions };
  }

  /** RemoteSessions: what a session handle sends, to the instance holding the client's stream (this one, or over the bus). */
  async handOver(id: string, message: SessionMessage): Promise<void> {
    const jsonrpc = { jsonrpc: '2.0', ...message } as unknown as JSONRPCMessage;
    const here = this.sessions?.peek(id)?.shared;
    if (here?.holdsStream) return here.sendHere(jsonrpc);
    await this.publish({ kind: 'deliver', id, message: jsonrpc as unknown as Record<string, unknown> }, true);
  }

  /** RemoteSessions: the session's own resources, in the store (every instance reads them there). */
  resources(id: string): SessionResourceKeeper {
    const { store } = this.opts.shared;
    return {
      list: () => store.resources(id),
      get: (uri) => store.resource(id, uri),
      put: (resource) => store.putResource(id, resource),
      delete: (uri) => store.deleteResource(id, uri),
    };
  }

  private async heard(id: string, p: Record<string, unknown>): Promise<void> {
    // Close listeners of the session run on every instance, whether it holds a copy or not.
    if (p.kind === 'ended') this.opts.onEnded?.(id);
    const session = this.sessions?.peek(id);
    const copy = session?.shared;
    if (!session || !copy) return;
    switch (p.kind) {
      case 'ended':
        copy.holdsStream = false; // nothing to hand over
        await this.sessions?.remove(id, 'local');
        break;
      case 'changed':
        copy.apply(p.change as SessionStateChange);
        break;
      case 'stream':
        // A stale message (this copy took over since) changes nothing.
        if ((await this.opts.shared.store.get(id, 0))?.holder === this.origin) break;
        copy.holdsStream = false;
        copy.closeStream();
        break;
      case 'released':
        if (typeof p.origin === 'string' && (await this.opts.shared.store.claimHolder(id, this.origin, p.origin))) copy.holdsStream = true;
        break;
      case 'deliver':
        if (copy.holdsStream) await copy.sendHere(p.message as unknown as JSONRPCMessage);
        break;
    }
  }

  private async publish(event: Record<string, unknown>, rethrow = false): Promise<void> {
    try {
      await this.opts.shared.bus.publish(this.opts.shared.channel, { ...event, origin: this.origin });
    } catch (err) {
      if (rethrow) throw err;
      this.opts.logger.warn({ err, kind: event.kind }, 'could not tell the other instances of a session event');
    }
  }

  close(): void {
    this.unsubscribe();
  }
}
