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
import { serveStdio, StdioServerTransport } from '../protocol/sdk-stdio.js';
import type { JSONRPCMessage } from '../protocol/sdk-server.js';
import type { Readable, Writable } from 'node:stream';
import { handshakeReplay, isReplayAnswer } from '../protocol/handshake-replay.js';
import { createModernEraSupport, type ModernEraOptions } from '../protocol/modern-era.js';
import { buildServer, type ServerFactoryOptions } from '../protocol/server-factory.js';
import { createNotificationGap } from './notification-gap.js';
import { guardStdioListen } from '../protocol/sdk-served-methods.js';
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

/** The SDK's stdio transport, with notifications leaving before the response that follows them. */
class GappedStdioTransport extends StdioServerTransport {
  private readonly gap = createNotificationGap();
  constructor(
    input: Readable,
    output: Writable,
    private readonly requests: StdioRequests,
  ) {
    super(input, output);
  }
  override send(message: JSONRPCMessage): Promise<void> {
    // The answer to a replayed initialize: the client had its answer from the cold front.
    if (isReplayAnswer(message)) return Promise.resolve();
    return this.gap.send(message, () => super.send(message)).finally(() => this.requests.written(message));
  }
}

export function startSdkStdio(opts: SdkStdioOptions): RunningStdio {
  const disposers: Array<() => void> = [];
  const requests = createStdioRequests();
  const guarded = guardStdin(opts.input, opts.output, opts.lineGuard, {
    line: (message) => requests.read(message),
    ...(opts.inputEnded ? { ended: opts.inputEnded } : {}),
  });
  const transport = new GappedStdioTransport(guarded.stream, opts.output, requests);
  // subscriptions/listen (2026-07-28) goes through the pipeline before the SDK's listen router.
  guardStdioListen(transport, { core: opts.factory.core, transport: 'stdio', ...(opts.factory.defaultAuth ? { defaultAuth: opts.factory.defaultAuth } : {}) });
  const modern = createModernEraSupport(opts.modern);
  const handle = serveStdio(
    async (rc) => {
      const built = await buildServer({ ...opts.factory, modern, transport: 'stdio', trackLive: true }, rc.era === 'modern' ? '2026' : '2025');
      disposers.push(built.dispose);
      return built.server;
    },
    { legacy: 'serve', transport, ...(opts.onerror ? { onerror: opts.onerror } : {}) },
  );
  if (opts.handshake) {
    // Queued before any line the transport reads: the SDK pins the 2025 era with it, then serves the rest in order.
    const replay = handshakeReplay(opts.handshake);
    transport.onmessage?.(replay.initialize);
    transport.onmessage?.(replay.initialized);
  }
  return {
    inFlight: () => requests.count,
    async close() {
      disposers.forEach((d) => d());
      await handle.close();
      requests.abandon(opts.output);
      guarded.detach();
    },
  };
}
