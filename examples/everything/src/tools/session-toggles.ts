/**
 * The intervals toggle-simulated-logging and toggle-subscriber-updates start for one 2025-era
 * session: a second call stops it, and it stops by itself when the session ends
 * (`session.onClose`), so nothing is kept for a session that is gone.
 */
import type { IMcpSession } from 'fa-mcp-sdk';

export type ToggleState = 'started' | 'stopped';
export type StopReason = 'toggled off' | 'session closed';

export class SessionToggles {
  private readonly running = new Map<string, (reason: StopReason) => void>();

  /** `onStop` hears of every interval that stops, and why. */
  constructor(private readonly onStop: (sessionId: string, toggle: string, reason: StopReason) => void) {}

  /** Starts `tick` every `everyMs` for the session, or stops it when it runs. */
  toggle(session: IMcpSession, name: string, everyMs: number, tick: () => Promise<unknown>): ToggleState {
    const key = `${session.id}\n${name}`;
    const stopRunning = this.running.get(key);
    if (stopRunning) {
      stopRunning('toggled off');
      return 'stopped';
    }
    const timer = setInterval(() => void tick().catch(() => undefined), everyMs);
    timer.unref();
    const stop = (reason: StopReason) => {
      clearInterval(timer);
      forget();
      this.running.delete(key);
      this.onStop(session.id, name, reason);
    };
    const forget = session.onClose(() => stop('session closed'));
    this.running.set(key, stop);
    return 'started';
  }

  /** Whether the session has `name` running. */
  isRunning(sessionId: string, name: string): boolean {
    return this.running.has(`${sessionId}\n${name}`);
  }
}
