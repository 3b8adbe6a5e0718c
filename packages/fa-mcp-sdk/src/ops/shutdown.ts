/**
 * Graceful shutdown, for the load balancer first, in this order:
 * 1. drain: readiness already answers 503 (the caller flipped it) and
 *    `beginDrain` leaves service discovery; everything is still served for
 *    `drainMs`, so the balancer stops sending before anything is refused;
 * 2. stop accepting: the listener closes, idle keep-alive connections close,
 *    every later response says `Connection: close`;
 * 3. in-flight requests and tasks finish within `graceMs`;
 * 4. the closers run in order (streams, task leases, sessions, stores, pools).
 * `hurry` (a second signal) cuts steps 1 and 3 short; the closers still run.
 * Abandoned work: the requests still in flight after the grace (they are cut)
 * and what the closers report (tasks failed by the stop). A task a closer hands
 * over to another instance is not abandoned.
 */
import type { CoreLogger } from '../core/core.js';

/** Time as shutdown sees it: real by default, injected by tests. */
export interface ShutdownClock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: ShutdownClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

export interface ShutdownPlan {
  logger: CoreLogger;
  /** Time in-flight work gets once the server stopped accepting. */
  graceMs: number;
  /** Time the server keeps serving with readiness at 503 before it stops accepting (0: none). */
  drainMs: number;
  /** Called first: leave service discovery (Consul). */
  beginDrain?: () => Promise<void>;
  /** Stop taking new connections and requests. */
  stopAccepting: () => Promise<void>;
  /** Requests being served: the grace waits for them; those still in flight after it are cut (abandoned). */
  inFlight: () => number;
  /** Tasks running here: the grace waits for them too; a closer reports what became of the rest. */
  tasksRunning?: () => number;
  /** Closers run after the grace, in order (streams, leases, sessions, stores, pools...). */
  closers: Array<{ name: string; close: () => Promise<void | CloserReport> }>;
  /** Aborts the drain window and the grace (a second SIGTERM). */
  hurry?: AbortSignal;
  clock?: ShutdownClock;
}

/** What a closer did with the work it stopped (the tasks closer). */
export interface CloserReport {
  /** Handed over to another instance (lease released): not lost. */
  handedOver?: number;
  /** Lost: failed by the stop. */
  abandoned?: number;
}

export interface ShutdownOutcome {
  /** Nothing was lost: every request finished, every task finished or was handed over. */
  drained: boolean;
  /** Requests cut at the end of the grace, plus tasks failed by the stop. */
  abandoned: number;
  /** Tasks whose lease was released for another instance to take over (a shared task store). */
  handedOver: number;
  durationMs: number;
}

const POLL_MS = 25;

export async function runShutdown(plan: ShutdownPlan, reason: string): Promise<ShutdownOutcome> {
  const clock = plan.clock ?? realClock;
  const started = clock.now();
  if (plan.drainMs > 0) {
    plan.logger.info({ reason, drainMs: plan.drainMs, graceMs: plan.graceMs }, 'draining: /ready answers 503, still serving until the drain time is over');
  }
  await plan.beginDrain?.().catch((err: unknown) => plan.logger.warn({ err }, 'leaving service discovery failed'));
  if (plan.drainMs > 0) await clock.sleep(Math.max(0, started + plan.drainMs - clock.now()), plan.hurry);

  plan.logger.info({ reason, graceMs: plan.graceMs, hurried: plan.hurry?.aborted ?? false }, 'shutting down: no longer accepting connections');
  await plan.stopAccepting().catch((err: unknown) => plan.logger.warn({ err }, 'stop accepting failed'));

  const busy = () => plan.inFlight() + (plan.tasksRunning?.() ?? 0);
  const deadline = clock.now() + plan.graceMs;
  while (busy() > 0 && clock.now() < deadline && !plan.hurry?.aborted) {
    await clock.sleep(Math.min(POLL_MS, deadline - clock.now()), plan.hurry);
  }
  const cut = plan.inFlight();
  const tasks = plan.tasksRunning?.() ?? 0;
  if (cut > 0) plan.logger.warn({ requests: cut, tasks }, 'grace period over: cutting the requests still in flight');
  else if (tasks > 0) plan.logger.info({ tasks }, 'grace period over: stopping the tasks still running (handed over to another instance where they may run again)');

  let abandoned = cut;
  let handedOver = 0;
  for (const c of plan.closers) {
    try {
      const report = await c.close();
      abandoned += report?.abandoned ?? 0;
      handedOver += report?.handedOver ?? 0;
    } catch (err) {
      plan.logger.warn({ err, closer: c.name }, 'error while closing');
    }
  }
  const durationMs = clock.now() - started;
  plan.logger.info({ durationMs, abandoned, handedOver }, 'shutdown complete');
  return { drained: abandoned === 0, abandoned, handedOver, durationMs };
}
