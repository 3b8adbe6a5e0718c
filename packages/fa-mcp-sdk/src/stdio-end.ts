/**
 * What a stdio server does when its client closes stdin (a script that wrote
 * its requests and closed its end is ordinary): it stops gracefully, which
 * waits for every request it read within `webServer.shutdownGraceMs` (one
 * still open after the grace is answered with a JSON-RPC error), and, when it
 * owns the process (started with the signal handling on the process's own
 * stdin), exits like a signal's stop: 0 when everything finished, 1 when
 * something was abandoned. An embedded server (its own streams, or
 * `handleSignals: false`) is only stopped.
 */
import type { Writable } from 'node:stream';
import type { CoreLogger } from './core/core.js';
import type { ShutdownOutcome } from './ops/shutdown.js';

export interface StoppableOnEnd {
  logger: CoreLogger;
  stop(reason: string): Promise<ShutdownOutcome>;
}

/** How long the last answers may take to leave before the process exits anyway (a reader that stopped reading). */
const FLUSH_LIMIT_MS = 5_000;

/** Resolves once what was written to `out` is handed to the system (or it cannot be). */
function flushed(out: Writable): Promise<void> {
  if (out.writableEnded || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_LIMIT_MS);
    timer.unref();
    out.write('', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function stopAtEndOfInput(server: StoppableOnEnd, opts: { exit: boolean; stdout: Writable }): Promise<void> {
  server.logger.info({ transport: 'stdio' }, 'stdin ended: answering the requests read, then stopping');
  const outcome = await server.stop('stdin ended');
  if (!opts.exit) return;
  await flushed(opts.stdout);
  process.exit(outcome.drained ? 0 : 1);
}
