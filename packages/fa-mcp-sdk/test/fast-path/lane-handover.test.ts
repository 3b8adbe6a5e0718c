/**
 * The HTTP fast lane reads a request's body before it knows whether it serves
 * it. Whatever that body turns out to be, the answer is the express chain's:
 * bad JSON, bytes that are not UTF-8, nesting over the limit, an empty batch,
 * a declared length over the cap, a body that never finishes. Each raw request
 * carries the 2026-07-28 tools/call headers (so the lane looks at it) and goes
 * to a server with the lane and one without; the answers must match. And a
 * body the lane does serve is read right however it arrives: with its headers,
 * after them, or in parts, one request after another on one connection.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatToolResult } from '../../src/index.js';
import { startPair, type Pair } from './parity-kit.js';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  'x-request-id': 'handover',
};

interface Raw {
  status: number;
  body: string;
  contentType: string | undefined;
}

function post(url: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, contentType: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends the headers and half the body, then waits for the server to answer and close. */
function stall(url: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
    const head = Object.entries({ ...HEADERS, host: `127.0.0.1:${port}`, 'content-length': '100' })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n{"jsonrpc":"2.0"`);
  });
}

/**
 * Sends each request over one raw connection, `pieces` of it at a time with a pause between them
 * (headers alone, body in parts; 0: all in one write), and returns the raw answers in order.
 */
function sendInPieces(url: string, requests: Array<{ body: string; pieces: number }>): Promise<string[]> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const answers: string[] = [];
    let buffered = '';
    socket.on('error', reject);
    socket.on('data', (c: Buffer) => {
      buffered += c.toString('utf8');
      // Each answer is a Content-Length JSON response: cut it off once complete.
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1];
        if (end < 0 || length === undefined || buffered.length < end + 4 + Number(length)) break;
        answers.push(buffered.slice(0, end + 4 + Number(length)));
        buffered = buffered.slice(end + 4 + Number(length));
        if (answers.length === requests.length) {
          socket.end();
          resolve(answers);
          return;
        }
        void write(answers.length);
      }
    });
    const write = async (i: number) => {
      const { body, pieces } = requests[i] as { body: string; pieces: number };
      const head = Object.entries({ ...HEADERS, host: `127.0.0.1:${port}`, 'content-length': String(Buffer.byteLength(body)) })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      // pieces 0: headers and body in one write (the body arrives with its headers).
      socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n${pieces === 0 ? body : ''}`);
      if (pieces === 0) return;
      const size = Math.ceil(body.length / pieces);
      for (let at = 0; at < body.length; at += size) {
        await new Promise((r) => setTimeout(r, 30));
        socket.write(body.slice(at, at + size));
      }
    };
    void write(0);
  });
}

const call = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'handover', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });

describe('fast lane hand-over of bodies it does not serve', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair(
      () => ({ tools: [{ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' }, handler: ({ arguments: a }) => formatToolResult(a) }] }),
      { mcp: { limits: { maxPayloadBytes: 4_096, maxJsonDepth: 8 } }, webServer: { timeouts: { headersMs: 2_000, bodyMs: 400, requestMs: 5_000, keepAliveMs: 2_000 } } },
    );
  });
  afterAll(async () => {
    await pair?.stop();
  });

  const bodies: Array<[string, Buffer | string, number]> = [
    ['malformed JSON', '{"jsonrpc":"2.0",', 400],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 400],
    ['nesting over the limit', `{"a":${'['.repeat(20)}${']'.repeat(20)}}`, 400],
    ['an empty batch', '[]', 400],
    ['a batch', `[${call(1)}]`, 400],
    ['a JSON string', '"tools/call"', 400],
    ['a leading BOM before a plain call', `\ufeff${call(2)}`, 200],
  ];

  it.each(bodies)('%s: the express chain answers it, on both servers alike', async (_label, body, status) => {
    const before = pair.fast.handle.http?.fastLane().fastCalls ?? 0;
    const [fast, sdk] = [await post(pair.fast.handle.url as string, body), await post(pair.sdk.handle.url as string, body)];
    expect(fast).toEqual(sdk);
    expect(fast.status).toBe(status);
    // Only the plain call (behind its BOM) is the lane's to serve.
    expect((pair.fast.handle.http?.fastLane().fastCalls ?? 0) - before).toBe(status === 200 ? 1 : 0);
  });

  it('a body that comes after its headers, whole or in parts, is served by the lane; the connection serves the next request', async () => {
    const before = pair.fast.handle.http?.fastLane().fastCalls ?? 0;
    const answers = await sendInPieces(pair.fast.handle.url as string, [
      { body: call(11), pieces: 0 },
      { body: call(12), pieces: 1 },
      { body: call(13), pieces: 3 },
      { body: call(14), pieces: 0 },
    ]);
    expect(answers).toHaveLength(4);
    answers.forEach((raw, i) => {
      expect(raw).toMatch(/^HTTP\/1\.1 200/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ id: 11 + i, result: { structuredContent: { text: 'hi' } } });
    });
    expect((pair.fast.handle.http?.fastLane().fastCalls ?? 0) - before).toBe(4);
  });

  it('a declared length over the cap: 413 before any byte is read', async () => {
    const big = call(3).padEnd(5_000, ' ');
    const [fast, sdk] = [await post(pair.fast.handle.url as string, big), await post(pair.sdk.handle.url as string, big)];
    expect(fast).toEqual(sdk);
    expect(fast.status).toBe(413);
  });

  it('a body that never finishes: 408 with a JSON-RPC error after bodyMs, then the connection closes', async () => {
    const [fast, sdk] = await Promise.all([stall(pair.fast.handle.url as string), stall(pair.sdk.handle.url as string)]);
    for (const text of [fast, sdk]) {
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(text).toContain('"code":-32004');
      expect(text).toMatch(/connection: close/i);
    }
  });
});
