/**
 * Graceful shutdown: stop accepting, let in-flight requests finish within the
 * grace period, then close everything that holds resources, in order.
 */
import type { CoreLogger } from '../core/core.js';

export interface ShutdownPlan {
  logger: CoreLogger;
  graceMs: number;
  /** Stop taking new connections and requests. */
  stopAccepting: () => Promise<void>;
  /** Requests still being served. */
  inFlight: () => number;
  /** Closers run after the drain, in order (sessions, stores, pools...). */
  closers: Array<{ name: string; close: () => Promise<void> }>;
}

export interface ShutdownOutcome {
  drained: boolean;
  abandoned: number;
  durationMs: number;
}

export async function runShutdown(plan: ShutdownPlan, reason: string): Promise<ShutdownOutcome> {
  const started = Date.now();
  plan.logger.info({ reason, graceMs: plan.graceMs }, 'shutting down: no longer accepting requests');
  await plan.stopAccepting().catch((err: unknown) => plan.logger.warn({ err }, 'stop accepting failed'));

  const deadline = started + plan.graceMs;
  while (plan.inFlight() > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
  }
  const abandoned = plan.inFlight();
  if (abandoned > 0) plan.logger.warn({ abandoned }, 'grace period over: closing with requests still in flight');

  for (const c of plan.closers) {
    try {
      await c.close();
    } catch (err) {
      plan.logger.warn({ err, closer: c.name }, 'error while closing');
    }
  }
  const durationMs = Date.now() - started;
  plan.logger.info({ durationMs, abandoned }, 'shutdown complete');
  return { drained: abandoned === 0, abandoned, durationMs };
}
