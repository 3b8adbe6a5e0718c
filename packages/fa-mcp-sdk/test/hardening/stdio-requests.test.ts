/**
 * The requests a stdio connection read and has not answered (what a stop waits
 * for), and the JSON-RPC errors that answer those still open when it closes.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStdioRequests } from '../../src/transport/stdio-requests.js';

const request = (id: unknown, method = 'tools/call', params?: object) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

describe('stdio requests in flight', () => {
  it('counts a request from its line to its answer; notifications, responses of the client and listen streams do not count', () => {
    const r = createStdioRequests();
    r.read(request(1));
    r.read(request('a', 'prompts/get'));
    r.read({ jsonrpc: '2.0', method: 'notifications/initialized' });
    r.read({ jsonrpc: '2.0', id: 'srv-1', result: {} }); // the client's answer to a request of the server
    r.read(request(9, 'subscriptions/listen'));
    expect(r.count).toBe(2);
    r.written({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1 } });
    r.written({ jsonrpc: '2.0', id: 'srv-2', method: 'elicitation/create' }); // a request of the server, not an answer
    expect(r.count).toBe(2);
    r.written({ jsonrpc: '2.0', id: 1, result: {} });
    expect(r.count).toBe(1);
    r.written({ jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'x' } });
    expect(r.count).toBe(0);
    r.written({ jsonrpc: '2.0', id: 'a', result: {} }); // nothing left to settle
    expect(r.count).toBe(0);
  });

  it('a cancelled request is settled (the SDK does not answer it); the string and number ids stay apart; a reused id counts twice', () => {
    const r = createStdioRequests();
    r.read(request(1));
    r.read(request('1'));
    r.read(request(2));
    r.read(request(2));
    expect(r.count).toBe(4);
    r.read({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no longer needed' } });
    expect(r.count).toBe(3);
    r.written({ jsonrpc: '2.0', id: 2, result: {} });
    expect(r.count).toBe(2);
  });

  it('answers every request still open with a JSON-RPC error, once', () => {
    const r = createStdioRequests();
    const out = new PassThrough();
    r.read(request(7));
    r.read(request('x'));
    r.read(request('x'));
    r.written({ jsonrpc: '2.0', id: 'x', result: {} });
    expect(r.abandon(out)).toBe(2);
    const lines = (out.read() as Buffer).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const error = { code: -32603, message: 'The server stopped before the request finished' };
    expect(lines).toEqual([
      { jsonrpc: '2.0', id: 7, error },
      { jsonrpc: '2.0', id: 'x', error },
    ]);
    expect(r.count).toBe(0);
    expect(r.abandon(out)).toBe(0);
  });
});
