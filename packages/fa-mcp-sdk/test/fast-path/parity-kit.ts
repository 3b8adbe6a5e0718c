/**
 * Two servers from one definition, one with the 2026-07-28 fast path and one
 * without, and the means to send both the same raw request and compare what
 * comes back: HTTP status, the headers a client acts on, every JSON-RPC
 * message in order (byte for byte, after masking what differs by nature:
 * the port, a freshly signed requestState), and what the pipeline and the
 * handler saw.
 */
import type { McpServerData, PipelineStep } from '../../src/index.js';
import { startTestServer, type TestServer, type TestTarget } from '../../src/testing/index.js';
import { parseSseMessages } from '../integration/helpers.js';

export const REVISION = '2026-07-28';
const HTTP_2026 = { transport: 'http', era: '2026', label: 'http/2026' } as const;

export interface Seen {
  params: string;
  context: string;
  state: string[];
}

/** Records what the pipeline saw of each call (of `methods`), by X-Request-Id. */
export function captureStep(seen: Map<string, Seen>, methods: PipelineStep['methods'] = ['tools/call']): PipelineStep {
  return {
    name: 'parity-capture',
    methods,
    async run(op, next) {
      const { logger: _l, client: _c, headers, ...ctx } = op.ctx;
      const { host: _h, ...otherHeaders } = headers ?? {};
      seen.set(op.ctx.requestId, {
        params: JSON.stringify(op.params),
        context: JSON.stringify({ ...ctx, headers: otherHeaders }),
        state: [...op.state.keys()],
      });
      return next();
    },
  };
}

export interface Pair {
  fast: TestServer;
  sdk: TestServer;
  seen: { fast: Map<string, Seen>; sdk: Map<string, Seen> };
  stop(): Promise<void>;
}

export async function startPair(
  data: (seen: Map<string, Seen>, label: 'fast' | 'sdk') => McpServerData,
  config: Record<string, unknown> = {},
  target: TestTarget = HTTP_2026,
): Promise<Pair> {
  const seen = { fast: new Map<string, Seen>(), sdk: new Map<string, Seen>() };
  const mcp = (fastPath: boolean) => ({ ...((config.mcp as object | undefined) ?? {}), fastPath });
  const fast = await startTestServer(data(seen.fast, 'fast'), { target, config: { ...config, mcp: mcp(true) } });
  const sdk = await startTestServer(data(seen.sdk, 'sdk'), { target, config: { ...config, mcp: mcp(false) } });
  return { fast, sdk, seen, stop: async () => void (await Promise.all([fast.stop(), sdk.stop()])) };
}

export interface CallSpec {
  name: string;
  arguments?: Record<string, unknown>;
  /** Extra `_meta` entries (progressToken, foreign keys). */
  meta?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  logLevel?: string;
  headers?: Record<string, string>;
  id?: number | string;
  /** Extra top-level params (requestState, inputResponses, task). */
  extraParams?: Record<string, unknown>;
}

export interface Answer {
  status: number;
  /** The headers a client acts on, port masked. */
  headers: Record<string, string | null>;
  /** Every JSON-RPC message of the body, re-serialized in its own key order, requestState masked. */
  messages: string[];
  /** Whether the body was a whole JSON document with a Content-Length (the fast lane's answers). */
  framedByLength: boolean;
}

const maskState = (_key: string, value: unknown) => (_key === 'requestState' && typeof value === 'string' ? '<requestState>' : value);
const maskPort = (v: string | null) => (v === null ? null : v.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'));

export function callBody(spec: CallSpec): Record<string, unknown> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': spec.capabilities ?? {},
    ...(spec.logLevel ? { 'io.modelcontextprotocol/logLevel': spec.logLevel } : {}),
    ...spec.meta,
  };
  const params = { name: spec.name, ...(spec.arguments ? { arguments: spec.arguments } : {}), ...spec.extraParams, _meta };
  return { jsonrpc: '2.0', id: spec.id ?? 1, method: 'tools/call', params };
}

export async function send(server: TestServer, requestId: string, spec: CallSpec, signal?: AbortSignal): Promise<Answer> {
  const res = await fetch(server.handle.url as string, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': 'tools/call',
      'mcp-name': spec.name,
      'x-request-id': requestId,
      ...spec.headers,
    },
    body: JSON.stringify(callBody(spec)),
    signal: signal ?? AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const raw: unknown[] = type.includes('text/event-stream') ? parseSseMessages(text) : type.includes('json') ? [JSON.parse(text)] : [text];
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'cache-control', 'retry-after', 'www-authenticate', 'x-request-id', 'x-content-type-options', 'content-security-policy']) {
    headers[name] = maskPort(res.headers.get(name));
  }
  return {
    status: res.status,
    headers,
    messages: raw.map((m) => maskPort(JSON.stringify(m, maskState)) as string),
    framedByLength: res.headers.get('content-length') !== null,
  };
}
