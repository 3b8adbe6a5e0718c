/** Starts a node HTTP server on host:port and answers its base URL (IPv6 hosts in brackets). */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configSchema, schemaNodeAt } from '../../config/schema.js';

/** The configuration keys that set a listener's address (dotted paths of the schema). */
export interface ListenKeys {
  port: string;
  host: string;
}

const MAIN_LISTENER: ListenKeys = { port: 'webServer.port', host: 'webServer.host' };

/**
 * A listen failure a person can act on, in one line: the address, what is wrong, and the setting
 * to change (e.g. `webServer.port (env PORT)`). `code` is node's (EADDRINUSE, EACCES,
 * EADDRNOTAVAIL, ENOTFOUND); the original error is the `cause`.
 */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    message: string,
    readonly code: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** "webServer.port (env PORT)": the key and its canonical environment variable, from the schema. */
function settingName(key: string): string {
  const env = schemaNodeAt(configSchema, key.split('.'))?.['x-env']?.[0];
  return `${key}${env ? ` (env ${env})` : ''}`;
}

/** What went wrong, or undefined for an error that is not about the address. */
function reason(code: string | undefined, port: number, keys: ListenKeys): string | undefined {
  const setting = (which: keyof ListenKeys) => settingName(keys[which]);
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use by another process; stop that process or choose another port with ${setting('port')}`;
    case 'EACCES':
      return `permission denied${port < 1024 ? ' (ports below 1024 need privileges)' : ''}; choose another port with ${setting('port')}`;
    case 'EADDRNOTAVAIL':
      return `the address is not one of this machine's; choose another host with ${setting('host')}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve; choose another host with ${setting('host')}`;
    default:
      return undefined;
  }
}

/** The error `listen` rejects with: a ListenError for an address problem, the original otherwise. */
export function listenFailure(err: unknown, host: string, port: number, keys: ListenKeys = MAIN_LISTENER): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why = reason(code, port, keys);
  if (!why || !code) return err;
  const address = host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
  return new ListenError(`cannot listen on ${address}: ${why}`, code, { cause: err });
}

/** `keys`: the settings that chose host and port, named in the error when the address cannot be used. */
export async function listen(server: Server, port: number, host: string, keys: ListenKeys = MAIN_LISTENER): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(listenFailure(err, host, port, keys));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
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
