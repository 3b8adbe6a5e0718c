/**
 * The web Requests the SDK's HTTP handlers get (web-request.ts) are the ones
 * `toWebRequest()` of @modelcontextprotocol/node builds (a devDependency here,
 * no longer a dependency of the library): for the same request on real HTTP
 * over loopback, the same URL, method, headers and body, and the same 413 for a
 * body over the limit.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWebRequest } from '@modelcontextprotocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBodyBytes } from '../../src/transport/http/body-length.js';
import { parsedBodyRequest, streamedBodyRequest } from '../../src/transport/http/web-request.js';

type Build = (req: IncomingMessage) => Promise<Request>;
interface Seen {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string;
}

const LIMIT = 1024;
let server: Server;
let port = 0;
let build: Build = () => Promise.reject(new Error('no builder'));

beforeAll(async () => {
  server = createServer((req, res) => {
    build(req).then(
      async (web) => {
        const seen: Seen = { url: web.url, method: web.method, headers: [...(web.headers as unknown as Iterable<[string, string]>)], body: await web.text() };
        res.setHeader('content-type', 'application/json').end(JSON.stringify(seen));
      },
      (err: { status?: number; httpStatus?: number; message?: string }) => res.writeHead(err.httpStatus ?? err.status ?? 500).end(err.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Sent {
  method: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
}

function send(sent: Sent, with_: Build): Promise<{ status: number; text: string }> {
  build = with_;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: sent.method, path: sent.path ?? '/mcp?x=1', headers: sent.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once('error', reject);
    req.end(sent.body);
  });
}

const ours: Build = (req) => streamedBodyRequest(req, LIMIT);
const sdks: Build = (req) => toWebRequest(req, undefined, { maxRequestBodySize: LIMIT });

describe('streamedBodyRequest is toWebRequest without a parsed body', () => {
  const cases: Record<string, Sent> = {
    'a GET with repeated and mixed-case headers': {
      method: 'GET',
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': 's-1', 'X-List': ['a', 'b'], 'Last-Event-ID': 'e-9' },
    },
    'a DELETE without a body': { method: 'DELETE', headers: { 'mcp-session-id': 's-2' } },
    'a POST the JSON parser left alone': { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'héllo wörld' },
    'a chunked POST': { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, body: 'x'.repeat(900) },
    'a POST with an empty body': { method: 'POST', headers: { 'content-length': '0' }, body: '' },
  };
  for (const [name, sent] of Object.entries(cases)) {
    it(`builds the same Request for ${name}`, async () => {
      const a = await send(sent, ours);
      const b = await send(sent, sdks);
      expect(a.status, a.text).toBe(200);
      expect(JSON.parse(a.text)).toEqual(JSON.parse(b.text));
    });
  }

  it('refuses a body over the limit with 413, by its declared length or by what arrives', async () => {
    for (const sent of <Sent[]>[
      { method: 'POST', headers: { 'content-length': String(LIMIT + 1) }, body: 'y'.repeat(LIMIT + 1) },
      { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, body: 'z'.repeat(LIMIT + 1) },
    ]) {
      const a = await send(sent, ours);
      const b = await send(sent, sdks);
      expect(a.status).toBe(413);
      expect(b.status).toBe(413);
      expect(a.text).toBe(b.text);
    }
  });
});

describe('parsedBodyRequest is toWebRequest with a parsed body, without the body', () => {
  it('gives the same URL, method and headers (Content-Length of the re-serialized body when no parser measured it)', async () => {
    const parsed = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'é' } };
    // the request's own bytes are not read: the parsed body stands for them
    const sent: Sent = { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'identity', host: 'example.test:8080' }, body: '' };
    const a = JSON.parse((await send(sent, async (req) => parsedBodyRequest(req, parsed))).text) as Seen;
    const b = JSON.parse((await send(sent, (req) => toWebRequest(req, parsed))).text) as Seen;
    expect(a.url).toBe('http://example.test:8080/mcp?x=1');
    expect(a.headers).toEqual(b.headers);
    expect(a.headers).toContainEqual(['content-length', String(Buffer.byteLength(JSON.stringify(parsed)))]);
    expect([a.url, a.method]).toEqual([b.url, b.method]);
    expect(a.body).toBe('');
  });

  it('gives Content-Length as the body bytes the parser measured (body-length.ts)', async () => {
    const parsed = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const sent: Sent = { method: 'POST', headers: { 'content-type': 'application/json', host: 'example.test' }, body: '' };
    const seen = JSON.parse(
      (
        await send(sent, async (req) => {
          recordBodyBytes(req, 321);
          return parsedBodyRequest(req, parsed);
        })
      ).text,
    ) as Seen;
    expect(seen.headers).toContainEqual(['content-length', '321']);
    expect(seen.headers.filter(([name]) => name === 'content-length')).toHaveLength(1);
  });
});
