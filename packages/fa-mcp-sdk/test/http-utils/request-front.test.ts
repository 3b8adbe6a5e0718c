import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hostOriginCheck } from '../../src/transport/http/host-origin-guard.js';
import { getRequestId } from '../../src/transport/http/request-id.js';
import { createRequestFront } from '../../src/transport/http/request-front.js';

function exchange(method = 'POST', headers: Record<string, string> = {}): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = { host: '127.0.0.1', ...headers };
  return { req, res: new ServerResponse(req) };
}

describe('createRequestFront', () => {
  it('counts a POST in flight once however often it is admitted, until its response closes (once)', () => {
    const front = createRequestFront({ securityHeaders: { enabled: true, hstsMaxAgeSec: 0 } });
    const a = exchange();
    const b = exchange();
    front.admit(a.req, a.res);
    front.admit(a.req, a.res); // the fast lane handing it on to express
    front.admit(b.req, b.res);
    expect(front.inFlight()).toBe(2);
    a.res.emit('close');
    a.res.emit('close');
    expect(front.inFlight()).toBe(1);
    b.res.emit('close');
    expect(front.inFlight()).toBe(0);
    front.admit(a.req, a.res); // an already counted request is not counted again
    expect(front.inFlight()).toBe(0);
  });

  it('does not count other methods, and each front counts its own requests', () => {
    const one = createRequestFront({ securityHeaders: { enabled: false, hstsMaxAgeSec: 0 } });
    const two = createRequestFront({ securityHeaders: { enabled: false, hstsMaxAgeSec: 0 } });
    const get = exchange('GET');
    one.admit(get.req, get.res);
    expect(one.inFlight()).toBe(0);
    const post = exchange();
    one.admit(post.req, post.res);
    two.admit(post.req, post.res);
    expect([one.inFlight(), two.inFlight()]).toEqual([1, 1]);
    post.res.emit('close');
    expect([one.inFlight(), two.inFlight()]).toEqual([0, 0]);
  });

  it('sets the security headers in helmet order and the request id, and writes nothing into the request', () => {
    const front = createRequestFront({ securityHeaders: { enabled: true, hstsMaxAgeSec: 600 } });
    const { req, res } = exchange('POST', { 'x-request-id': 'abc-1' });
    res.setHeader('X-Powered-By', 'Express');
    front.admit(req, res);
    expect(res.getHeaderNames()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
      'x-request-id',
    ]);
    expect(res.getHeader('x-request-id')).toBe('abc-1');
    expect(res.getHeader('strict-transport-security')).toBe('max-age=600');
    expect(getRequestId(req)).toBe('abc-1');
    // The id travels beside the request (request-id.ts), the address with the exchange: no in-band headers.
    expect(req.headers['x-fa-mcp-remote-address']).toBeUndefined();
    expect(Object.keys(req.headers)).toEqual(['host', 'x-request-id']);
  });
});

describe('hostOriginCheck, one Host after another', () => {
  it('gives each Host value its own verdict (the last one is remembered, never another)', () => {
    const check = hostOriginCheck({ enabled: true, bindHost: '0.0.0.0', allowedHosts: ['api.example.com:8443'], allowedOrigins: [] });
    const sequence: Array<[string | undefined, string | undefined]> = [
      ['127.0.0.1:3000', undefined],
      ['127.0.0.1:3000', undefined],
      ['evil.example.com', 'invalid Host header'],
      ['evil.example.com', 'invalid Host header'],
      ['api.example.com:8443', undefined],
      ['api.example.com:9000', 'invalid Host header'],
      [undefined, 'invalid Host header'],
      ['localhost', undefined],
    ];
    for (const [host, verdict] of sequence) expect(check(host === undefined ? {} : { host })).toBe(verdict);
  });

  it('checks Origin against the Host of this request, not the last one remembered', () => {
    const check = hostOriginCheck({ enabled: true, bindHost: '0.0.0.0', allowedHosts: ['api.example.com'], allowedOrigins: [] });
    expect(check({ host: 'localhost:1', origin: 'http://localhost:5173' })).toBeUndefined();
    expect(check({ host: 'api.example.com', origin: 'http://localhost:5173' })).toBe('invalid Origin header');
    expect(check({ host: 'localhost:1', origin: 'http://localhost:5173' })).toBeUndefined();
  });
});
