/**
 * Shared helpers of the integration tests: start an in-process server on a free
 * loopback port, connect the official SDK client over Streamable HTTP in either
 * protocol era, and speak raw HTTP where a test needs to see the wire.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { initMcpServer, type McpServerData, type McpServerHandle } from '../../src/index.js';

export type Era = '2025' | '2026';
export const ERAS: readonly Era[] = ['2025', '2026'];
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

export type ShutdownOutcome = Awaited<ReturnType<McpServerHandle['stop']>>;

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

const running = new Set<McpServerHandle>();
const clients = new Set<Client>();

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

function deepMerge(base: Plain, patch: Plain): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isPlain(current) && isPlain(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/** Loopback, a free port, no logs, no signal handlers, no environment leaking in. */
export const BASE_TEST_CONFIG: Plain = {
  webServer: { host: '127.0.0.1', port: 0 },
  logger: { level: 'silent' },
};

/** Starts a server in-process; `stopAllServers()` (afterEach) stops it. */
export async function startTestServer(data: McpServerData, config: Plain = {}): Promise<McpServerHandle> {
  const handle = await initMcpServer(data, {
    config: deepMerge(BASE_TEST_CONFIG, config),
    handleSignals: false,
    cwd: FIXTURES_DIR,
    env: {},
    nodeEnv: 'test',
  });
  running.add(handle);
  return handle;
}

/** Closes every client and stops every server started by these helpers. */
export async function stopAllServers(): Promise<void> {
  const openClients = [...clients];
  clients.clear();
  await Promise.all(openClients.map((c) => c.close().catch(() => undefined)));
  const handles = [...running];
  running.clear();
  await Promise.all(handles.map((h) => (h.stopped ? undefined : h.stop('test cleanup'))));
}

export function serverUrl(handle: McpServerHandle): URL {
  if (!handle.url) throw new Error('the server has no HTTP endpoint');
  return new URL(handle.url);
}

/** The server's origin, e.g. http://127.0.0.1:40123 */
export const baseUrl = (handle: McpServerHandle): string => serverUrl(handle).origin;

export interface ConnectOptions {
  era: Era;
  capabilities?: ClientCapabilities;
  /** Runs before connect, to register request and notification handlers. */
  setup?: (client: Client) => void;
  name?: string;
}

export interface ConnectedClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** A new SDK client over Streamable HTTP, pinned to one protocol era. */
export async function connectHttpClient(url: URL | string, opts: ConnectOptions): Promise<ConnectedClient> {
  const client = new Client(
    { name: opts.name ?? `it-client-${opts.era}`, version: '1.0.0' },
    {
      ...(opts.capabilities ? { capabilities: opts.capabilities } : {}),
      versionNegotiation: { mode: opts.era === '2026' ? { pin: MODERN_PROTOCOL_VERSION } : 'legacy' },
    },
  );
  opts.setup?.(client);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.add(client);
  return { client, transport };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON body, or the JSON-RPC messages of an SSE body; undefined when neither. */
  json: unknown;
}

/** Reads the JSON-RPC messages carried in the `data:` lines of an SSE body. */
export function parseSseMessages(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      out.push(JSON.parse(data));
    } catch {
      // not JSON (e.g. an endpoint event)
    }
  }
  return out;
}

export async function readRaw(response: Response): Promise<RawResponse> {
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    json = parseSseMessages(text);
  } else {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const MCP_ACCEPT = 'application/json, text/event-stream';

/** POSTs a JSON-RPC body (or a raw string) to the MCP endpoint with fetch. */
export async function postMcp(url: URL | string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return readRaw(response);
}

export const initializeRequest = (id: number | string = 1, protocolVersion = LEGACY_PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } },
});

/** Opens a 2025-era session over raw HTTP; returns its id. */
export async function openRawSession(url: URL | string): Promise<string> {
  const init = await postMcp(url, initializeRequest());
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
  const initialized = await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: ${initialized.status}`);
  return sessionId;
}

export interface NodeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request through node:http, which (unlike fetch) lets a test set any Host
 * header.
 */
export function nodeRequest(
  url: URL | string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<NodeResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        timeout: opts.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A JSON-RPC error body as the tests read it. */
export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

export function asJsonRpcError(value: unknown): JsonRpcErrorBody {
  if (!isPlain(value) || value.jsonrpc !== '2.0' || !isPlain(value.error)) {
    throw new Error(`not a JSON-RPC error: ${JSON.stringify(value)}`);
  }
  return value as unknown as JsonRpcErrorBody;
}

/**
 * Registers a handler for `notifications/tasks/status` (2025-11-25 tasks), a method the v2
 * client's typings no longer list (tasks are an extension there) but whose messages it still hands
 * to a handler registered for it.
 */
export function onTaskStatus(client: Client, handler: (params: { status?: string; taskId?: string }) => void): void {
  const register = client.setNotificationHandler.bind(client) as (method: string, fn: (n: { params?: unknown }) => void) => void;
  register('notifications/tasks/status', (n) => handler((n.params ?? {}) as { status?: string; taskId?: string }));
}
