/** Raw 2026-07-28 requests over HTTP: the envelope in `_meta`, the standard headers, the answer messages. */
import { parseSseMessages } from '../integration/helpers.js';

export const REVISION = '2026-07-28';

export interface WireOptions {
  capabilities?: Record<string, unknown>;
  logLevel?: string;
  headers?: Record<string, string>;
  id?: number;
}

export interface WireAnswer {
  status: number;
  /** Every JSON-RPC message of the answer (one for a JSON body; notifications first on an SSE body). */
  messages: Array<Record<string, unknown>>;
  /** The response to the request. */
  response: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

export async function post2026(url: string | URL, method: string, params: Record<string, unknown> = {}, opts: WireOptions = {}): Promise<WireAnswer> {
  const id = opts.id ?? 1;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': opts.capabilities ?? {},
    ...(opts.logLevel ? { 'io.modelcontextprotocol/logLevel': opts.logLevel } : {}),
  };
  const nameField = NAME_FIELD[method];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': REVISION,
    'mcp-method': method,
    ...(nameField && typeof params[nameField] === 'string' ? { 'mcp-name': params[nameField] as string } : {}),
    ...opts.headers,
  };
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const messages = ((res.headers.get('content-type') ?? '').includes('text/event-stream') ? parseSseMessages(text) : [JSON.parse(text)]) as Array<
    Record<string, unknown>
  >;
  const response = (messages.find((m) => m.id === id) ?? {}) as WireAnswer['response'];
  return { status: res.status, messages, response };
}
