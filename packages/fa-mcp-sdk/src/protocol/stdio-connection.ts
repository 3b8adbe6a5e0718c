/**
 * A stdio connection served by the SDK: its stdio transport on the given
 * streams, adapted with the given filters (wire-adapter.ts) and the listen
 * guard (subscriptions/listen through the pipeline first), and its serveStdio
 * loop, which picks the era from the client's first message and builds one
 * server instance for the connection with `build`. The only module that loads
 * `@modelcontextprotocol/server/stdio`, which the HTTP side never needs: the
 * stdio transport loads it when the first message the cold front does not
 * answer arrives (transport/stdio.ts).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { stdioListenFilter, type SdkServedOptions } from './sdk-served-methods.js';
import { WireAdapter, type WireFilter } from './wire-adapter.js';

export interface StdioConnectionOptions {
  input: Readable;
  output: Writable;
  /** Builds the connection's server instance for the era its first message picks. */
  build(era: '2025' | '2026'): Promise<McpServer>;
  /** What the listen guard runs with (the pipeline of `subscriptions/listen`). */
  listen: SdkServedOptions;
  /** Filters of the connection's wire, after the listen guard (the transport's own: what it counts, how it writes). */
  filters: WireFilter[];
  onerror?: (err: Error) => void;
}

export interface StdioConnection {
  /** Delivers a message as if it had been read (the handshake the cold front answered). */
  receive(message: JSONRPCMessage): void;
  close(): Promise<void>;
}

export function serveStdioConnection(opts: StdioConnectionOptions): StdioConnection {
  const wire = new WireAdapter(new StdioServerTransport(opts.input, opts.output), [stdioListenFilter(opts.listen), ...opts.filters]);
  const handle = serveStdio((rc) => opts.build(rc.era === 'modern' ? '2026' : '2025'), {
    legacy: 'serve',
    transport: wire,
    ...(opts.onerror ? { onerror: opts.onerror } : {}),
  });
  return {
    receive: (message) => wire.receive(message),
    close: () => handle.close(),
  };
}
