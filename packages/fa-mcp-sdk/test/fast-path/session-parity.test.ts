/**
 * The session fast path answers a 2025-era session's tools/call exactly as the
 * SDK's session transport does. Each case sends the same raw request on a
 * session of a server with `mcp.fastPath` on and on one with it off, in both
 * response modes, and compares status, the headers a client acts on, every
 * JSON-RPC message byte for byte (notifications included) and what the
 * pipeline saw; session ids, random by nature, are masked. The lane's counter
 * proves which path served each case, so a lane that quietly handed
 * everything to the SDK could not pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/testing/index.js';
import { parseSseMessages } from '../integration/helpers.js';
import { startPair, type Pair } from './parity-kit.js';
import { parityTools } from './parity-tools.js';
import { openSession, post, SESSION_TARGET } from './session-kit.js';

interface SessionCase {
  name: string;
  arguments?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  id?: number | string;
  headers?: Record<string, string>;
  extraParams?: Record<string, unknown>;
}

interface SessionAnswer {
  status: number;
  headers: Record<string, string | null>;
  messages: string[];
}

async function call(server: TestServer, session: string, requestId: string, spec: SessionCase): Promise<SessionAnswer> {
  const params = { name: spec.name, ...(spec.arguments ? { arguments: spec.arguments } : {}), ...spec.extraParams, ...(spec.meta ? { _meta: spec.meta } : {}) };
  const res = await post(server, { jsonrpc: '2.0', id: spec.id ?? 1, method: 'tools/call', params }, { 'mcp-session-id': session, 'x-request-id': requestId, ...spec.headers });
  const text = (await res.text()).replaceAll(session, '<session>');
  const type = res.headers.get('content-type') ?? '';
  const raw: unknown[] = !text ? [] : type.includes('text/event-stream') ? parseSseMessages(text) : type.includes('json') ? [JSON.parse(text)] : [text];
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'cache-control', 'retry-after', 'x-request-id', 'mcp-session-id']) headers[name] = res.headers.get(name)?.replaceAll(session, '<session>') ?? null;
  return { status: res.status, headers, messages: raw.map((m) => JSON.stringify(m)) };
}

const servedBySession = (server: TestServer) => server.handle.http?.fastLane().sessionCalls ?? 0;

describe.each(['json', 'sse'] as const)('session fast path parity (2025-11-25 tools/call, %s responses)', (mode) => {
  let pair: Pair;
  const aborted = { fast: [] as string[], sdk: [] as string[] };
  const sessions = { fast: '', sdk: '' };
  let n = 0;

  beforeAll(async () => {
    pair = await startPair(
      (seen, label) => parityTools(seen, aborted[label]),
      {
        mcp: {
          responseMode: mode,
          limits: { maxToolResultBytes: 2_000 },
          rateLimit: { perTool: { scarce: { maxRequests: 1, windowMs: 60_000 } } },
          progress: { throttleMs: 0 },
          httpErrorStatus: true,
        },
      },
      SESSION_TARGET,
    );
    sessions.fast = await openSession(pair.fast, 'info');
    sessions.sdk = await openSession(pair.sdk, 'info');
  });
  afterAll(async () => {
    await pair?.stop();
  });

  /** Same answer and the same view of the call on both; `lane` says whether the session fast path served it. */
  async function expectParity(spec: SessionCase, lane: 'serves' | 'hands over'): Promise<SessionAnswer> {
    const before = servedBySession(pair.fast);
    const requestId = `session-parity-${mode}-${++n}`;
    const fast = await call(pair.fast, sessions.fast, requestId, spec);
    const sdk = await call(pair.sdk, sessions.sdk, requestId, spec);
    expect(fast.status).toBe(sdk.status);
    expect(fast.headers).toEqual(sdk.headers);
    expect(fast.messages).toEqual(sdk.messages);
    const seen = (label: 'fast' | 'sdk') => JSON.stringify(pair.seen[label].get(requestId) ?? null).replaceAll(sessions[label], '<session>');
    expect(seen('fast')).toEqual(seen('sdk'));
    expect(servedBySession(pair.fast) - before).toBe(lane === 'serves' ? 1 : 0);
    expect(servedBySession(pair.sdk)).toBe(0);
    return fast;
  }

  it('a plain success, with input and output schemas', async () => {
    const fast = await expectParity({ name: 'echo', arguments: { text: 'héllo ✓' } }, 'serves');
    expect(fast.messages[fast.messages.length - 1]).toContain('"structuredContent":{"echoed":"héllo ✓"}');
    expect(fast.headers['mcp-session-id']).toBe('<session>');
  });

  it('what the pipeline and the handler see: params with progress token and foreign _meta, headers, session, client info', async () => {
    const fast = await expectParity({ name: 'sees', arguments: { b: [1, { c: null }], a: 'x', '10': 1 }, meta: { 'example.com/trace': 'abc', progressToken: 'tok-1' } }, 'serves');
    expect(fast.messages.join()).toContain('"clientInfo":{"name":"parity","version":"1.0.0"}');
    expect(JSON.stringify(pair.seen.fast.get(`session-parity-${mode}-${n}`))).toContain(sessions.fast);
  });

  it('results in another key order, tool errors, crashes, validation errors and unknown tools', async () => {
    await expectParity({ name: 'reversed' }, 'serves');
    await expectParity({ name: 'fails' }, 'serves');
    const crash = await expectParity({ name: 'crashes' }, 'serves');
    expect(crash.messages.join()).not.toContain('passwd');
    await expectParity({ name: 'echo', arguments: { text: 42 } }, 'serves');
    await expectParity({ name: 'echo', arguments: { text: 'a', extra: true } }, 'serves');
    await expectParity({ name: 'no_such_tool', arguments: {} }, 'serves');
    await expectParity({ name: 'echo', arguments: { text: 'a' }, id: 'str-id', meta: {} }, 'serves');
  });

  it('a rate-limited call: -32003 with Retry-After (and HTTP 429 on a JSON body with mcp.httpErrorStatus)', async () => {
    await expectParity({ name: 'scarce' }, 'serves');
    const limited = await expectParity({ name: 'scarce' }, 'serves');
    expect(limited.messages.join()).toContain('-32003');
    if (mode === 'json') {
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).not.toBeNull();
    }
  });

  it('non-text content, result _meta and capped results', async () => {
    await expectParity({ name: 'image' }, 'serves');
    await expectParity({ name: 'with_meta' }, 'serves');
    const huge = await expectParity({ name: 'huge' }, 'serves');
    expect(huge.messages.join()).toContain('TRUNCATED');
  });

  it('progress and logs at the level the session set: on the stream with SSE responses, dropped with JSON ones', async () => {
    const fast = await expectParity({ name: 'chatty', meta: { progressToken: 7 } }, 'serves');
    expect(fast.messages.join()).not.toContain('below the level');
    // Three progress notifications, the visible log, two notifications the server may send, the result.
    expect(fast.messages.length).toBe(mode === 'sse' ? 7 : 1);
  });

  it('requests it does not take go to the SDK path: tasks, reserved _meta, unknown sessions, refused headers', async () => {
    await expectParity({ name: 'echo', arguments: { text: 'a' }, extraParams: { task: { ttl: 1000 } } }, 'hands over');
    await expectParity({ name: 'echo', arguments: { text: 'a' }, meta: { 'io.modelcontextprotocol/related-task': { taskId: 'x' } } }, 'hands over');
    const version = await expectParity({ name: 'echo', arguments: { text: 'a' }, headers: { 'mcp-protocol-version': '1999-01-01' } }, 'hands over');
    expect(version.status).toBe(400);
    const accept = await expectParity({ name: 'echo', arguments: { text: 'a' }, headers: { accept: 'application/json' } }, 'hands over');
    expect(accept.status).toBe(406);
    const unknown = await expectParity({ name: 'echo', arguments: { text: 'a' }, headers: { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' } }, 'hands over');
    expect(unknown.status).toBe(404);
  });
});
