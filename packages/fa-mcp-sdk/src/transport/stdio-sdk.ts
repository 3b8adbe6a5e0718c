/**
 * The stdio transport: JSON-RPC on stdin/stdout and nothing else on stdout
 * (logs go to stderr). The SDK's serveStdio picks the era from the client's
 * first message and builds one server instance for the connection.
 */
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Readable, Writable } from 'node:stream';
import { buildServer, type ServerFactoryOptions } from '../protocol/server-factory.js';
import { createNotificationGap } from './notification-gap.js';
import { guardStdioListen } from '../protocol/sdk-served-methods.js';
import { guardStdin, type StdioLineGuardOptions } from './stdio-line-guard.js';

export interface StdioOptions {
  factory: Omit<ServerFactoryOptions, 'transport'>;
  stdin?: Readable;
  stdout?: Writable;
  onerror?: (err: Error) => void;
  /** Line checks in front of the SDK (see stdio-line-guard.ts); without them lines go to the SDK as they are. */
  lineGuard?: StdioLineGuardOptions;
}

export interface RunningStdio {
  close(): Promise<void>;
}

/** The SDK's stdio transport, with notifications leaving before the response that follows them. */
class GappedStdioTransport extends StdioServerTransport {
  private readonly gap = createNotificationGap();
  override send(message: JSONRPCMessage): Promise<void> {
    return this.gap.send(message, () => super.send(message));
  }
}

export function startStdio(opts: StdioOptions): RunningStdio {
  const disposers: Array<() => void> = [];
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const guarded = opts.lineGuard ? guardStdin(stdin, stdout, opts.lineGuard) : undefined;
  const transport = new GappedStdioTransport(guarded ? guarded.stream : stdin, stdout);
  // subscriptions/listen (2026-07-28) goes through the pipeline before the SDK's listen router.
  guardStdioListen(transport, { core: opts.factory.core, transport: 'stdio', ...(opts.factory.defaultAuth ? { defaultAuth: opts.factory.defaultAuth } : {}) });
  const handle = serveStdio(
    async (rc) => {
      const built = await buildServer({ ...opts.factory, transport: 'stdio', trackLive: true }, rc.era === 'modern' ? '2026' : '2025');
      disposers.push(built.dispose);
        return built.server;
    },
    { legacy: 'serve', transport, ...(opts.onerror ? { onerror: opts.onerror } : {}) },
  );
  return {
    async close() {
      disposers.forEach((d) => d());
      await handle.close();
      guarded?.detach();
    },
  };
}
