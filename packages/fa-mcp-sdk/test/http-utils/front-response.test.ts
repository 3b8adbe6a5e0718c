/**
 * The fast lane's responses write the front's headers with their own writeHead
 * (front-response.ts): a client must receive the same header lines, in the same
 * order, as when the front set them one by one, whatever the handler does with
 * the response. Each case runs on two real servers on loopback, one deferring,
 * one eager, and compares the raw header lines (without Date).
 */
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrontResponse } from '../../src/transport/http/front-response.js';
import { createRequestFront } from '../../src/transport/http/request-front.js';
import { SSE_HEADERS, sseEvent } from '../../src/transport/http/sse-frames.js';
import { writeWebResponse } from '../../src/transport/http/web-response.js';

type Handler = (res: ServerResponse) => void;

const OWN_CLOSE = 'Connection: close of its own';

const CASES: Record<string, Handler> = {
  'writeHead with a record, then end': (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' }).end('{}'),
  'writeHead with a reason phrase': (res) => res.writeHead(404, 'Nothing Here', { 'content-type': 'text/plain' }).end('no'),
  'writeHead with nothing of its own': (res) => res.writeHead(204).end(),
  'end alone (implicit head)': (res) => res.end('plain'),
  'setHeader first': (res) => {
    res.setHeader('mcp-session-id', 'abc');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  },
  'a name clash in writeHead replaces the front value': (res) => res.writeHead(200, { 'x-frame-options': 'SAMEORIGIN', 'content-type': 'text/plain' }).end('x'),
  // The event streams the fast lane writes, and the SDK's, as their writers give them to node.
  'an event stream head (SSE_HEADERS)': (res) => res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': 's-1' }).end(sseEvent('{}')),
  'an SDK event stream (writeWebResponse)': (res) =>
    void writeWebResponse(res, new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream', connection: 'keep-alive', 'keep-alive': 'timeout=5' } })),
  [OWN_CLOSE]: (res) => res.writeHead(200, { Connection: 'close', 'content-type': 'text/plain' }).end('x'),
  'a clash in another case': (res) => res.writeHead(200, { 'X-Request-Id': 'handler-chosen' }).end('x'),
  'a header list in writeHead': (res) => res.writeHead(200, ['content-type', 'text/plain', 'set-cookie', 'a=1', 'set-cookie', 'b=2']).end('x'),
  'removeHeader of a front header': (res) => {
    res.removeHeader('X-XSS-Protection');
    res.end('x');
  },
  'getHeader read back before the answer': (res) => {
    res.setHeader('x-seen-id', String(res.getHeader('x-request-id')));
    res.end('x');
  },
  'flushHeaders, then writes (an event stream)': (res) => {
    res.statusCode = 200;
    res.flushHeaders();
    res.end('data: x\n\n');
  },
  'appendHeader first': (res) => {
    res.appendHeader('vary', 'accept');
    res.end('x');
  },
};

function serve(defer: boolean, closing: boolean): Promise<Server> {
  const front = createRequestFront({ securityHeaders: { enabled: true, hstsMaxAgeSec: 600 }, closing: () => closing });
  const server = createServer({ ServerResponse: FrontResponse }, (req: IncomingMessage, res: ServerResponse) => {
    front.admit(req, res, { defer });
    const handler = CASES[decodeURIComponent((req.url ?? '/').slice(1))];
    if (handler) handler(res);
    else res.writeHead(500).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function rawHeaders(server: Server, name: string): Promise<{ status: number; lines: string[]; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    // A keep-alive client, so what the server says of the connection is its own choice.
    const agent = new Agent({ keepAlive: true });
    const req = request({ host: '127.0.0.1', port, path: `/${encodeURIComponent(name)}`, headers: { 'x-request-id': 'fixed-id-1' }, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i] !== 'Date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, lines, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([false, true])('FrontResponse (shutting down: %s)', (closing) => {
  let deferring: Server;
  let eager: Server;
  beforeAll(async () => {
    deferring = await serve(true, closing);
    eager = await serve(false, closing);
  });
  afterAll(() => {
    deferring.close();
    eager.close();
  });

  it.each(Object.keys(CASES))('%s: the same header lines as the eager front', async (name) => {
    const [got, want] = await Promise.all([rawHeaders(deferring, name), rawHeaders(eager, name)]);
    expect(got).toEqual(want);
    expect(want.status).not.toBe(500);
    expect(want.lines.some((l) => l.startsWith('Content-Security-Policy: '))).toBe(true);
    expect(want.lines.some((l) => l.startsWith('X-XSS-Protection: '))).toBe(name !== 'removeHeader of a front header');
    if (name !== 'a clash in another case') expect(want.lines).toContain('X-Request-Id: fixed-id-1');
    // While the server drains, every answer ends its connection: an event stream's head must not keep it.
    if (closing || name === OWN_CLOSE) expect(want.lines).toContain('Connection: close');
    else expect(want.lines).toContain('Connection: keep-alive');
    expect(want.lines.filter((l) => /^connection:/i.test(l))).toHaveLength(1);
  });

  it('sends the front headers first, in the eager order, then the response own', async () => {
    const { lines } = await rawHeaders(deferring, 'writeHead with a record, then end');
    const names = lines.map((l) => l.slice(0, l.indexOf(':')));
    expect(names.slice(0, 3)).toEqual(['Content-Security-Policy', 'Cross-Origin-Opener-Policy', 'Cross-Origin-Resource-Policy']);
    expect(names.indexOf('X-Request-Id')).toBeLessThan(names.indexOf('content-type'));
    expect(names).toContain('Strict-Transport-Security');
  });
});

describe('FrontResponse.deferFront', () => {
  it('refuses once a header is stored, so the front sets its own at once', async () => {
    const front = createRequestFront({ securityHeaders: { enabled: true, hstsMaxAgeSec: 0 } });
    const server = createServer({ ServerResponse: FrontResponse }, (req, res) => {
      res.setHeader('x-early', '1');
      front.admit(req, res, { defer: true });
      res.setHeader('x-names', res.getHeaderNames().join(','));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { lines } = await rawHeaders(server, 'x');
      const names = lines.find((l) => l.startsWith('x-names: '));
      expect(names?.split(': ')[1]?.split(',').slice(0, 2)).toEqual(['x-early', 'content-security-policy']);
    } finally {
      server.close();
    }
  });
});
