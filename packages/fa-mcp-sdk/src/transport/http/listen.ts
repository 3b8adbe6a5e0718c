/** Starts a node HTTP server on host:port and answers its base URL (IPv6 hosts in brackets). */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${hostForUrl}:${addr.port}`;
}

/** The loopback URL of the server's own MCP endpoint, from the address it listens on. */
export function selfMcpUrl(listenUrl: string): string {
  const url = new URL(listenUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.toString();
}
