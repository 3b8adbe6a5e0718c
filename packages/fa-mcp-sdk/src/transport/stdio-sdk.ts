/**
 * The SDK's side of a stdio connection: its serveStdio picks the era from the
 * client's first message and builds one server instance for the connection.
 * Loaded by transport/stdio.ts when the connection needs it (the cold front
 * answered what it could before): every line it did not answer comes here, in
 * order, through the line guard, after the handshake the cold front answered
 * (replayed, its answer dropped: protocol/handshake-replay.ts).
 *
 * The end of the input does not close the connection here (the SDK's transport
 * would, dropping the requests it is serving): the owner is told (`inputEnded`)
 * and stops the server, which waits for the requests read (`inFlight`, within
 * the shutdown grace), then closes; a request still open then is answered with
 * a JSON-RPC error (stdio-requests.ts).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '../protocol/sdk-server.js';
import { handshakeReplay, isReplayAnswer } from '../protocol/handshake-replay.js';
import { createModernEraSupport, type ModernEraOptions } from '../protocol/modern-era.js';
import { buildServer, type ServerFactoryOptions } from '../protocol/server-factory.js';
import { serveStdioConnection } from '../protocol/stdio-connection.js';
import type { WireFilter } from '../protocol/wire-adapter.js';
import { createNotificationGap } from '../protocol/notification-gap.js';
import { guardStdin, type StdioLineGuardOptions } from './stdio-line-guard.js';
import { createStdioRequests, type StdioRequests } from './stdio-requests.js';

export interface SdkStdioOptions {
  factory: Omit<ServerFactoryOptions, 'transport' | 'modern'>;
  /** What the 2026-07-28 revision needs (the requestState codec), made here: it is the SDK's. */
  modern: ModernEraOptions;
  /** What the client wrote that the cold front did not answer, then everything after. */
  input: Readable;
  output: Writable;
  onerror?: (err: Error) => void;
  /** Line checks in front of the SDK (see stdio-line-guard.ts). */
  lineGuard: StdioLineGuardOptions;
  /** The client's initialize the cold front answered: given to the SDK first. */
  handshake?: Record<string, unknown>;
  /** The input ended: every line it carried is with the SDK (or was answered by the line guard). */
  inputEnded?: () => void;
}

export interface RunningStdio {
  /** Requests read and not answered yet. */
  inFlight(): number;
  /** Closes the connection; a request still open is answered with a JSON-RPC error. */
  close(): Promise<void>;
}

/**
 * How the connection writes: the answer to a replayed initialize is dropped (the client had its answer
 * from the cold front), notifications leave before the response that follows them (notification-gap.ts),
 * and each message written settles the request it answers (stdio-requests.ts).
 */
function writeFilter(requests: StdioRequests): WireFilter {
  const gap = createNotificationGap();
  return {
    outbound(message: JSONRPCMessage, options, next) {
      if (isReplayAnswer(message)) return Promise.resolve();
      return gap.send(message, () => next(message, options)).finally(() => requests.written(message));
    },
  };
}

export function startSdkStdio(opts: SdkStdioOptions): RunningStdio {
  const disposers: Array<() => void> = [];
  const requests = createStdioRequests();
  const guarded = guardStdin(opts.input, opts.output, opts.lineGuard, {
    line: (message) => requests.read(message),
    ...(opts.inputEnded ? { ended: opts.inputEnded } : {}),
  });
  const modern = createModernEraSupport(opts.modern);
  const connection = serveStdioConnection({
    input: guarded.stream,
    output: opts.output,
    build: async (era) => {
      const built = await buildServer({ ...opts.factory, modern, transport: 'stdio', trackLive: true }, era);
      disposers.push(built.dispose);
      return built.server;
    },
    // subscriptions/listen (2026-07-28) goes through the pipeline before the SDK's listen router.
    listen: { core: opts.factory.core, transport: 'stdio', ...(opts.factory.defaultAuth ? { defaultAuth: opts.factory.defaultAuth } : {}) },
    filters: [writeFilter(requests)],
    ...(opts.onerror ? { onerror: opts.onerror } : {}),
  });
  if (opts.handshake) {
    // Queued before any line the transport reads: the SDK pins the 2025 era with it, then serves the rest in order.
    const replay = handshakeReplay(opts.handshake);
    connection.receive(replay.initialize);
    connection.receive(replay.initialized);
  }
  return {
    inFlight: () => requests.count,
    async close() {
      disposers.forEach((d) => d());
      await connection.close();
      requests.abandon(opts.output);
      guarded.detach();
    },
  };
}
