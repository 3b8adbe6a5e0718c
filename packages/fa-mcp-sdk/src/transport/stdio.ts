/**
 * The stdio transport: JSON-RPC on stdin/stdout and nothing else on stdout
 * (logs go to stderr).
 *
 * A 2025-era connection's first answers (initialize, ping, the core's lists)
 * come from the cold front (stdio-cold-front.ts, protocol/cold-answers.ts)
 * while the SDK is not loaded yet: a stdio server answers its first tools/list
 * without loading it. The SDK's side (stdio-sdk.ts) is loaded right after the
 * first list is answered, a moment after the initialize if no list follows, or
 * at once for a line the cold front does not take; it is handed the answered
 * handshake and then every line the cold front did not answer, in order, and
 * serves the connection from then on as it always does.
 *
 * When the input ends (a client or a script that wrote its requests and
 * closed stdin), every line read is still answered: the cold front answers
 * what it takes and hands the rest over with an ended input, the SDK's side
 * serves it, and `inputEnded` tells the owner, who stops the server: the stop
 * waits for the requests read (`inFlight`) within the shutdown grace.
 *
 * On the process's own stdout, the global console writes to stderr while the
 * server runs (`consoleToStderr`, stdio-console.ts).
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createColdAnswers } from '../protocol/cold-answers.js';
import type { ModernEraOptions } from '../protocol/modern-era.js';
import type { ServerFactoryOptions } from '../protocol/server-factory.js';
import { startColdFront } from './stdio-cold-front.js';
import { divertConsoleToStderr } from './stdio-console.js';
import type { StdioLineGuardOptions } from './stdio-line-guard.js';
import type { RunningStdio, SdkStdioOptions } from './stdio-sdk.js';

export type { RunningStdio };

export interface StdioOptions {
  factory: Omit<ServerFactoryOptions, 'transport' | 'modern'>;
  /** The 2026-07-28 revision's settings (its requestState codec is the SDK's, made with it). */
  modern: ModernEraOptions;
  stdin?: Readable;
  stdout?: Writable;
  onerror?: (err: Error) => void;
  /** Line checks in front of the SDK (see stdio-line-guard.ts). */
  lineGuard: StdioLineGuardOptions;
  /** Answer the first 2025-era lines before the SDK is loaded (default true). */
  coldFront?: boolean;
  /** Called once the SDK serves the connection (after the cold front's answers): work deferred from the start runs then. */
  sdkStarted?: () => void;
  /** Called once when the input has ended and every line it carried was answered or is with the SDK. */
  inputEnded?: () => void;
  /** While stdout is the process's, the global console writes to stderr (mcp.stdio.consoleToStderr; default false here). */
  consoleToStderr?: boolean;
}

/** How long after a cold-answered initialize with nothing further the SDK is loaded anyway. */
const LOAD_AFTER_HANDSHAKE_MS = 100;

export function startStdio(opts: StdioOptions): RunningStdio {
  const running = serveStdin(opts);
  if (!opts.consoleToStderr || (opts.stdout ?? process.stdout) !== process.stdout) return running;
  const restoreConsole = divertConsoleToStderr();
  return {
    inFlight: () => running.inFlight(),
    close: () => running.close().finally(restoreConsole),
  };
}

function serveStdin(opts: StdioOptions): RunningStdio {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  let ended = false;
  const inputEnded = opts.inputEnded
    ? () => {
        if (ended) return;
        ended = true;
        opts.inputEnded?.();
      }
    : undefined;
  const sdkOptions = (input: Readable, extra: Partial<SdkStdioOptions> = {}): SdkStdioOptions => ({
    factory: opts.factory,
    modern: opts.modern,
    input,
    output: stdout,
    lineGuard: opts.lineGuard,
    ...(opts.onerror ? { onerror: opts.onerror } : {}),
    ...(inputEnded ? { inputEnded } : {}),
    ...extra,
  });
  let sdk: Promise<RunningStdio> | undefined;
  let sdkSide: RunningStdio | undefined;
  const loadSdk = (options: SdkStdioOptions): Promise<RunningStdio> =>
    (sdk = import('./stdio-sdk.js').then((m) => {
      sdkSide = m.startSdkStdio(options);
      if (opts.sdkStarted) setImmediate(opts.sdkStarted);
      return sdkSide;
    }));
  const inFlight = () => sdkSide?.inFlight() ?? 0;

  const guard = opts.lineGuard;
  if (opts.coldFront === false) {
    loadSdk(sdkOptions(stdin)).catch((err: unknown) => opts.onerror?.(err as Error));
    return { inFlight, close: async () => (await sdk)?.close() };
  }

  const answers = createColdAnswers({
    core: opts.factory.core,
    tasks: opts.factory.tasks !== undefined,
    ...(opts.factory.defaultAuth ? { defaultAuth: opts.factory.defaultAuth } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  const front = startColdFront({
    input: stdin,
    output: stdout,
    answers,
    answered(message) {
      // The SDK loads right after the first list is answered; a moment after the handshake if no list comes.
      if (message.method === 'initialize') (timer = setTimeout(() => front.handOverSoon(), LOAD_AFTER_HANDSHAKE_MS)).unref();
      else if (message.id !== undefined && message.method !== 'ping') setImmediate(() => front.handOverSoon());
    },
    maxLineBytes: guard.maxLineBytes,
    maxJsonDepth: guard.maxJsonDepth,
    handOver(rest, inputDone) {
      clearTimeout(timer);
      // Everything the client writes from now on follows what the cold front did not answer, in order.
      const feed = new PassThrough();
      if (rest.length > 0) feed.write(rest);
      const handshake = answers.handshake;
      const observedConnection = answers.takeConnection();
      const factory = observedConnection ? { ...opts.factory, observedConnection } : opts.factory;
      loadSdk({ ...sdkOptions(feed, handshake ? { handshake } : {}), factory }).catch((err: unknown) => opts.onerror?.(err as Error));
      // The input ended while the cold front had it: the SDK's side is handed what was left, and the end.
      if (inputDone || stdin.readableEnded) {
        feed.end();
        return;
      }
      const forward = (chunk: Buffer) => {
        if (!feed.write(chunk)) {
          stdin.pause();
          feed.once('drain', () => stdin.resume());
        }
      };
      const end = () => {
        if (!feed.writableEnded) feed.end();
      };
      stdin.on('data', forward);
      stdin.once('end', end);
      stdin.once('close', end);
      unhook = () => {
        stdin.off('data', forward);
        stdin.off('end', end);
        stdin.off('close', end);
      };
    },
    ended() {
      // Every line was answered here: nothing is left for the SDK.
      clearTimeout(timer);
      answers.takeConnection()?.();
      inputEnded?.();
    },
  });
  let unhook: (() => void) | undefined;
  return {
    inFlight,
    async close() {
      clearTimeout(timer);
      front.detach();
      answers.takeConnection()?.();
      await (await sdk)?.close();
      unhook?.();
      if (stdin.listenerCount('data') === 0) stdin.pause();
    },
  };
}
