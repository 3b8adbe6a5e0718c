/**
 * A raw 2026-07-28 client for tests: every request carries the per-request
 * envelope (`_meta` protocol version, client info, client capabilities) and,
 * over HTTP, the standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name).
 * It returns results as the server sent them, whatever their `resultType`
 * (`task`, `input_required`, `complete`), which the SDK's client does not:
 * use it for extensions the SDK does not know, such as the tasks extension.
 */
import type { Readable, Writable } from 'node:stream';
import { ERROR_BRAND } from '../core/error-brand.js';
import { BaseMcpError } from '../core/errors.js';

export const REVISION_2026 = '2026-07-28';

/**
 * A JSON-RPC error answer, thrown by WireClient2026.request: the server's
 * `code`, `message` and `data`. What another server said is not this server's
 * to repeat: rethrown from a handler it is not exposed (-32603).
 */
export class WireError extends BaseMcpError {
  static override readonly [ERROR_BRAND]: string = 'WireError';
  override readonly expose: boolean = false;
  constructor(
    code: number,
    message: string,
    data?: Record<string, unknown>,
    /** The HTTP status of the answer (HTTP only). */
    readonly status?: number,
  ) {
    super(message, code, 502, data);
  }
}

export interface WireClient2026Options {
  /** Declared in every request's `_meta` (e.g. `{ extensions: { 'io.modelcontextprotocol/tasks': {} } }`). */
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Extra HTTP headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

export type WireTarget2026 = { url: string | URL } | { stdin: Writable; stdout: Readable };

export interface WireClient2026 {
  /** Sends one request; resolves with its `result`, rejects with WireError for an `error`. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Stops reading (stdio); nothing to do over HTTP. */
  close(): void;
}

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

function settle(answer: Answer, status?: number): Record<string, unknown> {
  if (answer.error) throw new WireError(answer.error.code, answer.error.message, answer.error.data, status);
  if (!answer.result) throw new WireError(-32603, `The answer carried neither result nor error (HTTP ${status ?? '-'})`, undefined, status);
  return answer.result;
}

/** JSON-RPC messages of an SSE body (`data:` lines of each event). */
function sseMessages(text: string): Answer[] {
  const out: Answer[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data) out.push(JSON.parse(data) as Answer);
  }
  return out;
}

export function connectWire2026(target: WireTarget2026, options: WireClient2026Options = {}): WireClient2026 {
  let nextId = 1;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const envelope = () => ({
    'io.modelcontextprotocol/protocolVersion': REVISION_2026,
    'io.modelcontextprotocol/clientInfo': options.clientInfo ?? { name: 'fa-mcp-wire-client', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
  });
  const message = (id: string, method: string, params: Record<string, unknown>) => {
    const meta = { ...((params._meta as Record<string, unknown> | undefined) ?? {}), ...envelope() };
    return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
  };

  if ('url' in target) {
    return {
      async request(method, params = {}) {
        const id = `wire-${nextId++}`;
        const field = NAME_FIELD[method];
        const name = field ? params[field] : undefined;
        const res = await fetch(target.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': REVISION_2026,
            'mcp-method': method,
            ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
            ...options.headers,
          },
          body: JSON.stringify(message(id, method, params)),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
        let answers: Answer[];
        try {
          answers = sse ? sseMessages(text) : [JSON.parse(text) as Answer];
        } catch {
          throw new WireError(-32700, `HTTP ${res.status}: the answer is not JSON-RPC: ${text.slice(0, 200)}`, undefined, res.status);
        }
        const answer = answers.find((a) => a.id === id) ?? answers.find((a) => a.error && a.id === null);
        if (!answer) throw new WireError(-32603, `HTTP ${res.status}: no answer to request ${id}`, undefined, res.status);
        return settle(answer, res.status);
      },
      close() {},
    };
  }

  const pending = new Map<string, { resolve: (a: Answer) => void; timer: NodeJS.Timeout }>();
  let buffer = '';
  const onData = (chunk: Buffer | string) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      let answer: Answer;
      try {
        answer = JSON.parse(line) as Answer;
      } catch {
        continue; // not ours to judge: another reader's concern
      }
      const waiting = typeof answer.id === 'string' ? pending.get(answer.id) : undefined;
      if (!waiting) continue;
      clearTimeout(waiting.timer);
      pending.delete(answer.id as string);
      waiting.resolve(answer);
    }
  };
  target.stdout.on('data', onData);
  return {
    request(method, params = {}) {
      const id = `wire-${nextId++}`;
      return new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new WireError(-32001, `No answer to ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve, timer });
        target.stdin.write(`${JSON.stringify(message(id, method, params))}\n`);
      }).then((a) => settle(a));
    },
    close() {
      target.stdout.off('data', onData);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
    },
  };
}
