/**
 * 2025-era Streamable HTTP sessions: each session is one SDK transport and one
 * server instance. Bounded in number (the oldest idle session is evicted to
 * make room) and in idle time (a sweep closes sessions nobody used).
 */
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { CoreLogger } from '../../core/core.js';
import type { SessionLink } from '../../protocol/session-fast-call.js';
import type { SessionStreams } from './session-exchange.js';

export interface Session {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  /** Requests being served right now; a session in use is never evicted. */
  inFlight: number;
  /** The authenticated subject that opened the session (see session-owner.ts); undefined when anonymous. */
  owner?: string;
  /** What the session fast path serves calls with (mcp.fastPath): the session's server side, and its resumable call streams (SSE responses). */
  fast?: { link: SessionLink; streams?: SessionStreams };
  close: () => Promise<void>;
}

export interface SessionManagerOptions {
  maxSessions: number;
  idleTimeoutMs: number;
  logger: CoreLogger;
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
    if (s) s.lastSeen = Date.now();
    return s;
  }

  /**
   * The session for a request from `owner`: undefined when the id is unknown or
   * the session belongs to someone else (a misuse does not refresh its idle clock).
   */
  claim(id: string, owner: string | undefined): Session | undefined {
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) return undefined;
    s.lastSeen = Date.now();
    return s;
  }

  /** Makes room for one more session; false when every session is busy. */
  async reserve(): Promise<boolean> {
    if (this.sessions.size < this.opts.maxSessions) return true;
    let oldest: Session | undefined;
    for (const s of this.sessions.values()) {
      if (s.inFlight > 0) continue;
      if (!oldest || s.lastSeen < oldest.lastSeen) oldest = s;
    }
    if (!oldest) return false;
    this.opts.logger.info({ sessionId: oldest.id }, 'session cap reached: evicting the oldest idle session');
    await this.remove(oldest.id);
    return true;
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
  }

  async remove(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.close().catch(() => undefined);
  }

  /** Forgets a session whose transport closed by itself (no second close). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  async sweep(now = Date.now()): Promise<void> {
    const expired = [...this.sessions.values()].filter((s) => s.inFlight === 0 && now - s.lastSeen > this.opts.idleTimeoutMs);
    for (const s of expired) {
      this.opts.logger.info({ sessionId: s.id }, 'session idle timeout');
      await this.remove(s.id);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.remove(id)));
  }
}
