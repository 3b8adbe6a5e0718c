/**
 * The Agent Tester's MCP connection to its own server: the official client over
 * Streamable HTTP to the server's loopback `/mcp` URL (never a URL a request
 * supplies), declaring the MCP Apps extension so tools with views come with
 * their `_meta.ui`, and carrying the caller's credentials when auth is on.
 * One connection per conversation (or per view request); closing it ends the
 * 2025-era session on the server too.
 */
import type { Client } from '../protocol/sdk-client.js';
import { loadOptional } from '../core/optional-package.js';
import { APP_EXTENSION_ID, APP_MIME_TYPE } from '../apps/constants.js';
import { sdkVersion } from '../ops/sdk-version.js';

export type SelfConnectionEra = '2025' | '2026';

export interface SelfConnectionOptions {
  /** The server's own MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /** The caller's credentials (`Authorization`), forwarded as they came. */
  headers?: Record<string, string>;
  era: SelfConnectionEra;
}

export interface SelfConnection {
  client: Client;
  close(): Promise<void>;
}

export const AGENT_TESTER_CLIENT_NAME = 'fa-mcp-agent-tester';

/** The official client (an optional peer), loaded with the first conversation; prepareAgentTester checks it at start. */
export const loadMcpClient = () => loadOptional('mcpClient', () => import('../protocol/sdk-client.js'));

export async function connectToSelf(options: SelfConnectionOptions): Promise<SelfConnection> {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClient();
  const client = new Client(
    { name: AGENT_TESTER_CLIENT_NAME, version: sdkVersion() },
    {
      capabilities: { extensions: { [APP_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } },
      versionNegotiation: { mode: options.era === '2026' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(options.url), options.headers ? { requestInit: { headers: options.headers } } : undefined);
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw err;
  }
  let closed = false;
  return {
    client,
    async close() {
      if (closed) return;
      closed = true;
      // A 2025-era session would otherwise stay open until the server's idle timeout.
      if (transport.sessionId) await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
