/**
 * 2025-era Streamable HTTP sessions: each session is one SDK transport and one
 * server instance. Bounded in number per caller (`maxPerCaller`: the caller's
 * own oldest idle session makes room) and in all (`maxSessions`: the oldest idle
 * session of the caller holding the most makes room), so one caller's flood of
 * `initialize` evicts only its own sessions; and in idle time (a sweep closes
 * sessions nobody used). With a shared store (session-share.ts) a session is
 * touched there, at most every few seconds, and one idle here is only closed
 * when the store says nobody used it anywhere; on shutdown the sessions close
 * here only, to be restored by the other instances.
 */
import type { SessionTransport } from '../../protocol/http-entry.js';
import type { CoreLogger } from '../../core/core.js';
import type { SessionLink } from '../../protocol/session-fast-call.js';
import type { SessionStreams } from './session-exchange.js';
import type { JSONRPCMessage } from '../../protocol/sdk-server.js';
import type { SessionStateChange } from '../../protocol/server-factory.js';

export interface Session {
  id: string;
  transport: SessionTransport;
  lastSeen: number;
  /** Requests being served right now; a session in use is never evicted. */
  inFlight: number;
  /** The authenticated subject that opened the session (see session-owner.ts); undefined when anonymous. */
  owner?: string;
  /** Who the session counts against for `maxPerCaller`: the subject, or the client address without authentication. */
  caller: string;
  /** What the session fast path serves calls with (mcp.fastPath): the session's server side, and its resumable call streams (SSE responses). */
  fast?: { link: SessionLink; streams?: SessionStreams };
  /** This instance's copy of a session in the shared store (mcp.sessions.store: postgres). */
  shared?: SharedCopy;
  /** `end`: the session is over (its events go); `local`: only this instance's copy closes (shared store: others serve it on). */
  close: (scope: SessionCloseScope) => Promise<void>;
}

export type SessionCloseScope = 'end' | 'local';

/** This instance's copy of a shared session. */
export interface SharedCopy {
  /** This copy delivers what the server sends outside requests (see the header). */
  holdsStream: boolean;
  /** When last seen was last written to the store. */
  storedAt: number;
  apply(change: SessionStateChange): void;
  /** Sends on this copy's transport, past the routing. */
  sendHere(message: JSONRPCMessage): Promise<void>;
  closeStream(): void;
}


/** What the manager asks of a store shared with other instances (session-share.ts). */
export interface SharedSessionClock {
  /** A request on the session now (written to the store at most every few seconds). */
  touched(session: Session, now: number): void;
  /** When the session was last used on any instance; undefined when it is gone. */
  lastSeen(session: Session): Promise<number | undefined>;
}

export interface SessionManagerOptions {
  maxSessions: number;
  /** Most sessions one caller (subject, or address without authentication) may hold; default maxSessions. */
  maxPerCaller?: number;
  idleTimeoutMs: number;
  logger: CoreLogger;
  shared?: SharedSessionClock;
}

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: SessionManagerOptions) {
    const every = Math.max(1000, Math.min(60_000, Math.floor(opts.idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => void this.sweep(), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    const s = this.sessions.get(id);
    if (s) this.touch(s);
    return s;
  }

  /** The session, without counting it as used. */
  peek(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /**
   * The session for a request from `owner`: undefined when the id is unknown or
   * the session belongs to someone else (a misuse does not refresh its idle clock).
   */
  claim(id: string, owner: string | undefined): Session | undefined {
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) return undefined;
    this.touch(s);
    return s;
  }

  private touch(s: Session): void {
    const now = Date.now();
    s.lastSeen = now;
    this.opts.shared?.touched(s, now);
  }

  /** Makes room for one more session of `caller`; false when every session that could make room is busy. */
  async reserve(caller: string): Promise<boolean> {
    const perCaller = this.opts.maxPerCaller ?? this.opts.maxSessions;
    const held = new Map<string, number>();
    for (const s of this.sessions.values()) held.set(s.caller, (held.get(s.caller) ?? 0) + 1);
    if ((held.get(caller) ?? 0) >= perCaller) return this.evictOldestOf(caller, 'per-caller session cap reached');
    if (this.sessions.size < this.opts.maxSessions) return true;
    // The cap of all sessions: the caller holding the most gives way, never one holding fewer.
    const order = [...held.entries()].sort((a, b) => b[1] - a[1]);
    for (const [holder] of order) {
      if (await this.evictOldestOf(holder, 'session cap reached')) return true;
    }
    return false;
  }

  private async evictOldestOf(caller: string, why: string): Promise<boolean> {
    let oldest: Session | undefined;
    for (const s of this.sessions.values()) {
      if (s.caller !== caller || s.inFlight > 0) continue;
      if (!oldest || s.lastSeen < oldest.lastSeen) oldest = s;
    }
    if (!oldest) return false;
    this.opts.logger.info({ sessionId: oldest.id }, `${why}: evicting the oldest idle session of its caller`);
    // With a shared store the caps bound this instance's copies: one idle here may be in use elsewhere.
    await this.remove(oldest.id, this.opts.shared ? 'local' : 'end');
    return true;
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
  }

  async remove(id: string, scope: SessionCloseScope = 'end'): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.close(scope).catch(() => undefined);
  }

  /** Forgets a session whose transport closed by itself (no second close). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  async sweep(now = Date.now()): Promise<void> {
    const expired = [...this.sessions.values()].filter((s) => s.inFlight === 0 && now - s.lastSeen > this.opts.idleTimeoutMs);
    for (const s of expired) {
      if (this.opts.shared) {
        // Idle here is not idle everywhere: another instance may be serving it.
        const seen = await this.opts.shared.lastSeen(s).catch((err: unknown) => {
          this.opts.logger.warn({ err, sessionId: s.id }, 'could not read a session from the store; kept');
          return now;
        });
        if (seen !== undefined && now - seen <= this.opts.idleTimeoutMs) {
          s.lastSeen = Math.max(s.lastSeen, seen);
          continue;
        }
        if (this.sessions.get(s.id) !== s || s.inFlight > 0) continue;
      }
      this.opts.logger.info({ sessionId: s.id }, 'session idle timeout');
      await this.remove(s.id);
    }
  }

  /** Closes every session: ended with the memory store; with a shared one only this copy (the others restore it). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const scope = this.opts.shared ? 'local' : 'end';
    await Promise.all([...this.sessions.keys()].map((id) => this.remove(id, scope)));
  }
}
