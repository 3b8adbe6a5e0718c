/**
 * A server and a client in the same process with no network and no child process: the server runs
 * its real stdio transport over a pair of in-memory streams, and the official client talks to it.
 */
import { PassThrough } from 'node:stream';
import type { Client, ClientOptions } from '../protocol/sdk-client.js';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from '../init-mcp-server.js';
import { createEraClient, type ClientEra } from './client-era.js';
import { StreamClientTransport } from './stream-client-transport.js';

export interface InMemoryOptions extends Omit<InitOptions, 'stdin' | 'stdout' | 'handleSignals'> {
  era?: ClientEra;
  clientOptions?: ClientOptions;
  /** Register client handlers (elicitation, sampling, roots) before it connects. */
  setup?: (client: Client) => void;
}

export interface InMemoryConnection {
  client: Client;
  handle: McpServerHandle;
  close(): Promise<void>;
}

export async function connectInMemory(data: McpServerData, options: InMemoryOptions = {}): Promise<InMemoryConnection> {
  const { era = '2025', clientOptions, setup, config = {}, ...init } = options;
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const handle = await initMcpServer(data, {
    ...init,
    config: {
      ...config,
      logger: { level: 'silent', ...((config.logger as object | undefined) ?? {}) },
      mcp: { ...((config.mcp as object | undefined) ?? {}), transportType: 'stdio' },
    },
    handleSignals: false,
    stdin: toServer,
    stdout: fromServer,
  });
  const client = createEraClient(era, clientOptions);
  setup?.(client);
  try {
    await client.connect(new StreamClientTransport(fromServer, toServer));
  } catch (err) {
    await handle.stop('client could not connect');
    throw err;
  }
  return {
    client,
    handle,
    async close() {
      await client.close().catch(() => undefined);
      await handle.stop('in-memory connection closed');
    },
  };
}
