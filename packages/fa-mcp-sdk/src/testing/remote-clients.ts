/**
 * Clients for a server that is already running: Streamable HTTP on either era (2025-11-25 sessions,
 * or 2026-07-28 where every request stands alone), legacy HTTP+SSE, and stdio to a process the
 * client spawns (a consumer's start file).
 */
import type { Client, ClientOptions } from '../protocol/sdk-client.js';
import { SSEClientTransport, StreamableHTTPClientTransport } from '../protocol/sdk-client.js';
import { StdioClientTransport, getDefaultEnvironment } from '../protocol/sdk-client-stdio.js';
import { createEraClient, type ClientEra } from './client-era.js';

export interface RemoteClientOptions {
  clientOptions?: ClientOptions;
  setup?: (client: Client) => void;
  /** Extra request headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
}

async function connected(client: Client, transport: Parameters<Client['connect']>[0], setup?: (client: Client) => void): Promise<Client> {
  setup?.(client);
  await client.connect(transport);
  return client;
}

/** Streamable HTTP to `url` (the `/mcp` endpoint); `era: '2026'` is the per-request client. */
export function connectHttp(url: string | URL, options: RemoteClientOptions & { era?: ClientEra } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), options.headers ? { requestInit: { headers: options.headers } } : undefined);
  return connected(createEraClient(options.era ?? '2025', options.clientOptions), transport, options.setup);
}

/** Legacy HTTP+SSE (protocol 2024-11-05): `GET /sse` then `POST /messages`. `url` may be the server's base or `/mcp` URL. */
export function connectLegacySse(url: string | URL, options: RemoteClientOptions = {}): Promise<Client> {
  const transport = new SSEClientTransport(new URL('/sse', url), options.headers ? { requestInit: { headers: options.headers } } : undefined);
  return connected(createEraClient('2025', options.clientOptions), transport, options.setup);
}

export interface StdioProcessOptions extends RemoteClientOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** Added to a minimal environment (PATH, HOME, ...), with `MCP_TRANSPORT_TYPE=stdio`. */
  env?: Record<string, string>;
  era?: ClientEra;
}

export interface StdioProcessClient {
  client: Client;
  /** What the process wrote to stderr so far (its logs). */
  stderr(): string;
  /** Closes the client, which ends the process. */
  close(): Promise<void>;
}

/** Spawns a server (e.g. `node dist/start.js`) in stdio mode and connects to it. */
export async function connectStdio(options: StdioProcessOptions): Promise<StdioProcessClient> {
  const transport = new StdioClientTransport({
    command: options.command,
    ...(options.args ? { args: options.args } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...getDefaultEnvironment(), MCP_TRANSPORT_TYPE: 'stdio', ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-65_536);
  });
  const client = createEraClient(options.era ?? '2025', options.clientOptions);
  try {
    await connected(client, transport, options.setup);
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`${options.command} ${(options.args ?? []).join(' ')}: ${(err as Error).message}${stderr ? `\n--- stderr ---\n${stderr}` : ''}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}
