/**
 * Raw 2025-era sessions for the session fast-path parity suites: POSTs with
 * the session's headers, and a session opened as a client opens it.
 */
import type { TestServer } from '../../src/testing/index.js';

export const VERSION = '2025-11-25';
export const SESSION_TARGET = { transport: 'http', era: '2025', label: 'http-session/2025' } as const;

export async function post(server: TestServer, body: unknown, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(server.handle.url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, ...headers },
    body: JSON.stringify(body),
    signal: signal ?? AbortSignal.timeout(10_000),
  });
}

/** A raw session: initialize, initialized, and the log level given (the client's `logging/setLevel`), each with `headers` (credentials). */
export async function openSession(server: TestServer, logLevel?: string, headers: Record<string, string> = {}): Promise<string> {
  const init = await post(server, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'parity', version: '1.0.0' } } }, headers);
  const session = init.headers.get('mcp-session-id') as string;
  await init.text();
  await (await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': session })).text();
  if (logLevel) await (await post(server, { jsonrpc: '2.0', id: 'lvl', method: 'logging/setLevel', params: { level: logLevel } }, { ...headers, 'mcp-session-id': session })).text();
  return session;
}
