/**
 * The SDK's side of a stdio connection: its serveStdio picks the era from the
 * client's first message and builds one server instance for the connection.
 * Loaded by transport/stdio.ts when the connection needs it (the cold front
 * answered what it could before): every line it did not answer comes here, in
 * order, through the line guard, after the handshake the cold front answered
 * (replayed, its answer dropped: protocol/handshake-replay.ts).
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

export interface SdkStdioOptions {
  factory: Omit<ServerFactoryOptions, 'transport' | 'modern'>;
  /** What the 2026-07-28 revision needs (the requestState codec), made here: it is the SDK's. */
  modern: ModernEraOptions;
  /** What the client wrote that the cold front did not answer, then everything after. */
  input: Readable;
  output: Writable;
  onerror?: (err: Error) => void;
  /** Line checks in front of the SDK (see stdio-line-guard.ts); without them lines go to the SDK as they are. */
  lineGuard?: StdioLineGuardOptions;
  /** The client's initialize the cold front answered: given to the SDK first. */
  handshake?: Record<string, unknown>;
}

export interface RunningStdio {
  close(): Promise<void>;
}

/** The SDK's stdio transport, with notifications leaving before the response that follows them. */
class GappedStdioTransport extends StdioServerTransport {
  private readonly gap = createNotificationGap();
  override send(message: JSONRPCMessage): Promise<void> {
    // The answer to a replayed initialize: the client had its answer from the cold front.
    if (isReplayAnswer(message)) return Promise.resolve();
    return this.gap.send(message, () => super.send(message));
  }
}

export function startSdkStdio(opts: SdkStdioOptions): RunningStdio {
  const disposers: Array<() => void> = [];
  const guarded = opts.lineGuard ? guardStdin(opts.input, opts.output, opts.lineGuard) : undefined;
  const transport = new GappedStdioTransport(guarded ? guarded.stream : opts.input, opts.output);
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
    async close() {
      disposers.forEach((d) => d());
      await handle.close();
      guarded?.detach();
    },
  };
}
