/**
 * The two ends of the fuzz test: an HTTP sender that reads whatever comes back
 * (JSON, SSE or nothing), a raw stdio peer over in-process streams, and the
 * judge that decides whether an answer is what a hostile input is owed.
 */
import { PassThrough, Writable } from 'node:stream';
import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/client';
import { formatToolResult, initMcpServer, type McpServerData, type McpServerHandle } from '../../src/index.js';
import { parseSseMessages } from '../integration/helpers.js';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A small server of its own: no tool here waits on the client or sleeps. */
export function fuzzServerData(): McpServerData {
  return {
    serverInfo: { name: 'fuzz-target', version: '1.0.0' },
    tools: [
      {
        name: 'echo',
        description: 'Echoes text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
        handler: ({ arguments: a }) => formatToolResult({ echoed: String(a.text) }),
      },
    ],
    prompts: [{ name: 'greet', description: 'Greets.', arguments: [{ name: 'name', required: true }], content: (a) => `Hello ${a.name}` }],
    resources: [{ uri: 'fuzz://static', name: 'static', mimeType: 'text/plain', content: 'static' }],
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Owed {
  /** Only well-formed notifications or responses: nothing is owed (an error is still fine). */
  silentOk: boolean;
  /** Ids of the well-formed requests in the body (one, or several in a batch): a result for them is a fair answer. */
  ids: Array<string | number>;
  /** The id the body names, well-formed or not (to wait for its answer). */
  id?: string | number;
}

/** What the body is owed, judged the way a strict JSON-RPC peer reads it. */
export function owedFor(body: Buffer): Owed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { silentOk: false, ids: [] };
  }
  const items = Array.isArray(parsed) && parsed.length > 0 ? parsed : [parsed];
  const silent = (m: unknown) => isJSONRPCNotification(m as never) || isJSONRPCResponse(m as never);
  const valid = items.every((m) => silent(m) || isJSONRPCRequest(m as never));
  const ids = valid ? items.filter((m) => isJSONRPCRequest(m as never)).map((m) => (m as { id: string | number }).id) : [];
  const rawId = isObject(parsed) ? parsed.id : undefined;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : undefined;
  return { silentOk: valid && ids.length === 0, ids, ...(id !== undefined ? { id } : {}) };
}

export const isJsonRpcError = (m: unknown): boolean =>
  isObject(m) && m.jsonrpc === '2.0' && isObject(m.error) && typeof m.error.code === 'number' && Number.isInteger(m.error.code) &&
  typeof m.error.message === 'string' && 'id' in m;

const isJsonRpcResult = (m: unknown): boolean => isObject(m) && m.jsonrpc === '2.0' && 'result' in m && 'id' in m;

/** '' when the answer is acceptable, else why not. */
export function judge(owed: Owed, answer: { status?: number; messages: unknown[] }, mustError = false): string {
  const { status, messages } = answer;
  const fairIds = mustError ? [] : owed.ids;
  if (status !== undefined && status >= 500) return `HTTP ${status}`;
  if (status !== undefined && status >= 400) {
    // A 4xx must still carry a JSON-RPC error body.
    return messages.length === 1 && isJsonRpcError(messages[0]) ? '' : `HTTP ${status} without a JSON-RPC error body`;
  }
  const responses = messages.filter((m) => isJsonRpcError(m) || isJsonRpcResult(m));
  if (responses.some((m) => isJsonRpcError(m) || fairIds.includes((m as Json).id as string | number))) return '';
  if (owed.silentOk && responses.length === 0) return '';
  if (responses.length > 0) return `a result where an error is owed: ${JSON.stringify(responses[0]).slice(0, 200)}`;
  return status !== undefined ? `HTTP ${status} with no JSON-RPC answer` : 'no answer';
}

export interface HttpAnswer {
  status: number;
  headers?: Headers;
  messages: unknown[];
  text: string;
}

const PRINTABLE = /^[\x21-\x7e]{1,200}$/;

/** The 2026-07-28 standard headers the body asks for (Mcp-Method, Mcp-Name), as a client would send them. */
export function modernHeaders(body: Buffer): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return {};
  }
  if (!isObject(parsed) || typeof parsed.method !== 'string' || !PRINTABLE.test(parsed.method)) return {};
  const out: Record<string, string> = { 'mcp-method': parsed.method };
  const params = isObject(parsed.params) ? parsed.params : {};
  const name = parsed.method === 'resources/read' ? params.uri : params.name;
  if (typeof name === 'string' && PRINTABLE.test(name)) out['mcp-name'] = name;
  return out;
}

export async function postRaw(url: string, body: Buffer, headers: Record<string, string>): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let messages: unknown[] = [];
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) messages = parseSseMessages(text);
  else {
    try {
      const parsed: unknown = JSON.parse(text);
      messages = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      messages = [];
    }
  }
  return { status: res.status, headers: res.headers, messages, text };
}

/** A stdio server in this process, spoken to line by line. */
export interface StdioPeer {
  handle: McpServerHandle;
  write(line: Buffer | string): void;
  /** Every message the server wrote since the last drain. */
  drain(): unknown[];
  /** Lines the server wrote that were not JSON (a broken framing). */
  garbage: string[];
  waitFor(predicate: (m: unknown) => boolean, timeoutMs: number): Promise<unknown | undefined>;
  close(): Promise<void>;
}

export async function startStdioPeer(data: McpServerData, config: Json): Promise<StdioPeer> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const quiet = new Writable({ write: (_c, _e, cb) => cb() });
  const handle = await initMcpServer(data, {
    config: { ...config, logger: { level: 'silent' }, mcp: { ...((config.mcp as Json | undefined) ?? {}), transportType: 'stdio' } },
    handleSignals: false,
    env: {},
    cwd: '/nonexistent',
    stdin: toServer,
    stdout: fromServer,
    logDestination: quiet,
  });
  let pending = '';
  let inbox: unknown[] = [];
  const garbage: string[] = [];
  const waiters = new Set<() => void>();
  fromServer.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (!line) continue;
      try {
        inbox.push(JSON.parse(line));
      } catch {
        garbage.push(line.slice(0, 200));
      }
    }
    waiters.forEach((w) => w());
  });
  return {
    handle,
    garbage,
    write: (line) => toServer.write(Buffer.concat([Buffer.isBuffer(line) ? line : Buffer.from(line), Buffer.from('\n')])),
    drain() {
      const out = inbox;
      inbox = [];
      return out;
    },
    waitFor(predicate, timeoutMs) {
      return new Promise((resolve) => {
        const check = () => {
          const found = inbox.find(predicate);
          if (found === undefined) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          resolve(undefined);
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      await handle.stop('fuzz finished');
    },
  };
}
