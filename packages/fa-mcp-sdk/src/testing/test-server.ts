/**
 * Start a consumer's server for a test on any transport, and connect the
 * official SDK client to it on either protocol era. The cross-era helper of
 * fa-mcp-sdk: one suite, every transport and era the server speaks.
 */
import { PassThrough } from 'node:stream';
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type ClientOptions } from '../protocol/sdk-client.js';
import { initMcpServer, type InitOptions, type McpServerData, type McpServerHandle } from '../init-mcp-server.js';
import { StreamClientTransport } from './stream-client-transport.js';
import { connectWire2026, type WireClient2026, type WireClient2026Options } from './wire-client-2026.js';

export type TestTransport = 'http' | 'stateless' | 'sse' | 'stdio';
export type TestEra = '2025' | '2026';

export interface TestTarget {
  transport: TestTransport;
  era: TestEra;
  /** For test titles, e.g. `http/2026`. */
  label: string;
  /**
   * HTTP only: `false` serves every request through the SDK (`mcp.fastPath:
   * false`), the twin of the same target on the fast path; absent keeps the
   * configured value (on by default).
   */
  fastPath?: boolean;
}

/**
 * Every transport and era combination a fa-mcp-sdk server serves. The HTTP
 * session and 2026-07-28 targets come twice: on the fast path (the default)
 * and on the SDK path (`fastPath: false`), so a rule that holds on one path
 * only fails a test.
 */
export const ALL_TARGETS: readonly TestTarget[] = [
  { transport: 'http', era: '2025', label: 'http-session/2025' },
  { transport: 'http', era: '2025', label: 'http-session-sdk/2025', fastPath: false },
  { transport: 'http', era: '2026', label: 'http/2026' },
  { transport: 'http', era: '2026', label: 'http-sdk/2026', fastPath: false },
  { transport: 'stateless', era: '2025', label: 'http-stateless/2025' },
  { transport: 'sse', era: '2025', label: 'legacy-sse/2025' },
  { transport: 'stdio', era: '2025', label: 'stdio/2025' },
  { transport: 'stdio', era: '2026', label: 'stdio/2026' },
];

export interface TestServer {
  handle: McpServerHandle;
  target: TestTarget;
  /** Connects a new SDK client (declare capabilities and handlers in `options`). */
  connect(options?: ClientOptions, setup?: (client: Client) => void): Promise<Client>;
  /**
   * A raw 2026-07-28 client (results of any `resultType`, e.g. the tasks
   * extension's task handles) over this server's HTTP endpoint or stdio.
   */
  wire2026(options?: WireClient2026Options): WireClient2026;
  stop(): Promise<void>;
}

export interface StartTestServerOptions extends Omit<InitOptions, 'stdin' | 'stdout' | 'handleSignals'> {
  target?: TestTarget;
}

export async function startTestServer(data: McpServerData, options: StartTestServerOptions = {}): Promise<TestServer> {
  const { target = ALL_TARGETS[0] as TestTarget, config = {}, ...rest } = options;
  const stdio = target.transport === 'stdio';
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const base = {
    webServer: { port: 0, host: '127.0.0.1', ...((config.webServer as object | undefined) ?? {}) },
    logger: { level: 'silent', ...((config.logger as object | undefined) ?? {}) },
    mcp: {
      ...((config.mcp as object | undefined) ?? {}),
      transportType: stdio ? 'stdio' : 'http',
      stateless: target.transport === 'stateless',
      ...(target.fastPath !== undefined ? { fastPath: target.fastPath } : {}),
    },
  };
  const handle = await initMcpServer(data, {
    ...rest,
    config: { ...config, ...base },
    handleSignals: false,
    ...(stdio ? { stdin: toServer, stdout: fromServer } : {}),
  });
  const clients: Client[] = [];
  const wires: WireClient2026[] = [];
  const track = (w: WireClient2026) => (wires.push(w), w);
  return {
    handle,
    target,
    async connect(clientOptions = {}, setup) {
      const client = new Client(
        { name: 'fa-mcp-test-client', version: '1.0.0' },
        { ...clientOptions, versionNegotiation: { mode: target.era === '2026' ? { pin: '2026-07-28' } : 'legacy' } },
      );
      setup?.(client);
      const url = handle.url ? new URL(handle.url) : undefined;
      const transport = stdio
        ? new StreamClientTransport(fromServer, toServer)
        : target.transport === 'sse'
          ? new SSEClientTransport(new URL('/sse', url))
          : new StreamableHTTPClientTransport(url as URL);
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    wire2026(wireOptions = {}) {
      if (stdio) return track(connectWire2026({ stdin: toServer, stdout: fromServer }, wireOptions));
      if (!handle.url) throw new Error('wire2026: the server has no HTTP endpoint');
      return track(connectWire2026({ url: handle.url }, wireOptions));
    },
    async stop() {
      wires.forEach((w) => w.close());
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await handle.stop('test finished');
    },
  };
}
