/**
 * Chat sessions of the Agent Tester, one per user, in memory: bounded in
 * number (a new session drops the least recently used one) and in age (a
 * session ends `maxAgeMs` after it began, or `idleMs` after its last request).
 * Expired sessions are dropped whenever the store is used; no timer runs.
 */
import type { ChatMessage } from './chat-types.js';

export interface AgentSession {
  key: string;
  createdAt: number;
  lastUsedAt: number;
  /** The conversation so far, without the system message. */
  history: ChatMessage[];
  /** User messages answered so far. */
  turns: number;
  /** A conversation is running: a second request waits for nothing and gets 409. */
  busy: boolean;
}

export interface SessionStoreOptions {
  maxSessions: number;
  maxAgeMs: number;
  idleMs: number;
  now?: () => number;
}

export class AgentSessionStore {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly now: () => number;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    this.sweep();
    return this.sessions.size;
  }

  /** The live session of `key`, touched; undefined when there is none (or it expired). */
  get(key: string): AgentSession | undefined {
    this.sweep();
    const session = this.sessions.get(key);
    if (session) this.touch(session);
    return session;
  }

  /** The session of `key`, created when missing (dropping the least recently used one when full). */
  getOrCreate(key: string): AgentSession {
    const existing = this.get(key);
    if (existing) return existing;
    while (this.sessions.size >= this.options.maxSessions) {
      const idle = [...this.sessions.values()].filter((s) => !s.busy);
      const victim = (idle.length ? idle : [...this.sessions.values()]).reduce((a, b) => (b.lastUsedAt < a.lastUsedAt ? b : a));
      this.sessions.delete(victim.key);
    }
    const t = this.now();
    const session: AgentSession = { key, createdAt: t, lastUsedAt: t, history: [], turns: 0, busy: false };
    this.sessions.set(key, session);
    return session;
  }

  delete(key: string): boolean {
    return this.sessions.delete(key);
  }

  private touch(session: AgentSession): void {
    session.lastUsedAt = this.now();
    // Map order = least recently used first.
    this.sessions.delete(session.key);
    this.sessions.set(session.key, session);
  }

  private sweep(): void {
    const t = this.now();
    for (const session of this.sessions.values()) {
      if (session.busy) continue;
      if (t - session.createdAt >= this.options.maxAgeMs || t - session.lastUsedAt >= this.options.idleMs) this.sessions.delete(session.key);
    }
  }
}
