/**
 * How one server stops (ops/shutdown.ts runs the steps): what each step does
 * for this server's parts, and the signals. SIGTERM (an orchestrator, a load
 * balancer's deploy) drains for `webServer.shutdown.drainMs` first; SIGINT
 * (Ctrl+C) and `stop()` do not, unless asked (`stop(reason, { drain: true })`).
 * A second signal while stopping cuts the drain and the grace short.
 */
import type { AppConfig } from './config/schema.js';
import type { CoreLogger } from './core/core.js';
import type { Operations } from './ops/operations.js';
import { runShutdown, type ShutdownClock, type ShutdownOutcome } from './ops/shutdown.js';
import type { TaskRuntime } from './tasks/task-runtime.js';
import type { RunningHttpServer } from './transport/http/http-server.js';

export interface StopOptions {
  /** Keep serving with /ready at 503 for `webServer.shutdown.drainMs` first (what SIGTERM does). */
  drain?: boolean;
}

export interface StoppableParts {
  config: AppConfig;
  logger: CoreLogger;
  ops: Pick<Operations, 'stopping' | 'close'>;
  http?: RunningHttpServer;
  /** The stdio connection; `inFlight`: requests read and not answered. */
  stdio?: { close(): Promise<void>; inFlight(): number };
  tasks?: TaskRuntime;
  /** The Events extension: its push streams end when the server stops accepting, so their clients reconnect elsewhere. */
  events?: { endStreams(): number };
  /** Closed after the transports, in this order (webhooks, state, databases). */
  closeLast: Array<{ name: string; close: () => Promise<void> }>;
  clock?: ShutdownClock;
}

export interface ServerStopper {
  stop(reason: string, opts?: StopOptions): Promise<ShutdownOutcome>;
  /** Shutdown began (the drain included): /ready answers 503. */
  readonly shuttingDown: boolean;
  /**
   * SIGTERM and SIGINT call `stop` (the handle's, which also marks it stopped) and end the process:
   * exit 0 when nothing was abandoned (every request finished, every task finished or was handed
   * over to another instance), 1 when a request was cut or a task failed by the stop.
   */
  handleSignals(stop: (reason: string, opts: StopOptions) => Promise<ShutdownOutcome>): void;
}

export function createServerStopper(parts: StoppableParts): ServerStopper {
  const { config, logger, http, stdio, tasks } = parts;
  let stopping: Promise<ShutdownOutcome> | undefined;
  const hurry = new AbortController();
  let stopBySignal: (reason: string, opts: StopOptions) => Promise<ShutdownOutcome> = (reason, opts) => stopper.stop(reason, opts);

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal while stopping: ending the drain and the grace now');
      hurry.abort();
    }
    void stopBySignal(signal, { drain: signal === 'SIGTERM' }).then((outcome) => process.exit(outcome.drained ? 0 : 1));
  };
  const offSignals = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };

  const stopper: ServerStopper = {
    get shuttingDown() {
      return stopping !== undefined;
    },
    handleSignals(stop) {
      stopBySignal = stop;
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
    stop(reason, opts = {}) {
      if (stopping) return stopping;
      stopping = runShutdown(
        {
          logger,
          graceMs: config.webServer.shutdownGraceMs,
          // Nothing routes to stdio: no balancer to wait for.
          drainMs: opts.drain && http ? config.webServer.shutdown.drainMs : 0,
          hurry: hurry.signal,
          ...(parts.clock ? { clock: parts.clock } : {}),
          beginDrain: () => {
            tasks?.manager.beginStop(); // takes over no task of another instance: it would only hand it over again
            return parts.ops.stopping(); // leave Consul first, so no new work is routed here
          },
          stopAccepting: async () => {
            await http?.stopAccepting();
            parts.events?.endStreams();
          },
          inFlight: () => (http?.inFlight() ?? 0) + (stdio?.inFlight() ?? 0),
          // the grace period is the running tasks' too; those left are handed over (not abandoned) or failed
          ...(tasks ? { tasksRunning: () => tasks.manager.runningCount } : {}),
          closers: [
            ...(http ? [{ name: 'streams', close: async () => void http.endStreams() }] : []),
            ...(tasks ? [{ name: 'tasks', close: () => tasks.drain() }] : []),
            ...(http ? [{ name: 'http', close: () => http.close() }] : []),
            ...(stdio ? [{ name: 'stdio', close: () => stdio.close() }] : []),
            ...(tasks ? [{ name: 'tasks-store', close: () => tasks.close() }] : []),
            ...parts.closeLast,
            { name: 'operations', close: () => parts.ops.close() },
          ],
        },
        reason,
      ).finally(offSignals);
      return stopping;
    },
  };
  return stopper;
}
