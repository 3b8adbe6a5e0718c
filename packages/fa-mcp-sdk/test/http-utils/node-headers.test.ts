import { describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { describeHttpRequest } from '../../src/transport/http/describe-request.js';
import { nodeHeaderReader } from '../../src/transport/http/node-headers.js';
import type { RequestContext } from '../../src/core/request-context.js';
import type { HeaderReader } from '../../src/protocol/request-context-builder.js';

const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo' } } };

/** What a record filled through forEach holds: the describer's way before the view built it at once. */
function viaForEach(reader: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  reader.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

describe('nodeHeaderReader().toRecord()', () => {
  const cases: Record<string, IncomingHttpHeaders> = {
    plain: { host: '127.0.0.1:1', 'content-type': 'application/json', 'mcp-method': 'tools/call', authorization: 'Bearer x', 'content-length': '999' },
    dropped: { 'transfer-encoding': 'chunked', 'content-encoding': 'gzip', ':authority': 'h2', accept: 'a' },
    repeated: { 'x-list': ['a', 'b'], 'set-cookie': ['c=1', 'd=2'], zed: 'z', alpha: 'y' },
    'empty set-cookie': { 'set-cookie': [], b: '1' },
  };
  for (const [name, headers] of Object.entries(cases)) {
    it(`equals the record forEach fills, in the same key order (${name})`, () => {
      const record = nodeHeaderReader(headers, body).toRecord();
      const expected = viaForEach(nodeHeaderReader(headers, body));
      expect(record).toEqual(expected);
      expect(Object.keys(record)).toEqual(Object.keys(expected));
    });
  }

  it('gives content-length as a plain field, the body re-serialized once per request', () => {
    const counted = { ...body, params: { ...body.params } };
    let serialized = 0;
    Object.defineProperty(counted, 'toJSON', { value: () => (serialized++, body), enumerable: false });
    const reader = nodeHeaderReader({ 'content-length': '5', host: 'h', accept: 'a' }, counted);
    const record = reader.toRecord();
    const expected = String(Buffer.byteLength(JSON.stringify(body)));
    expect(Object.keys(record)).toEqual(['accept', 'content-length', 'host']);
    expect(Object.getOwnPropertyDescriptor(record, 'content-length')).toEqual({ value: expected, writable: true, enumerable: true, configurable: true });
    expect(JSON.parse(JSON.stringify(record))['content-length']).toBe(expected);
    expect(reader.get('content-length')).toBe(expected);
    expect(reader.toRecord()['content-length']).toBe(expected);
    expect(serialized).toBe(1); // once for the request, whoever reads it
  });

  it('gives content-length as the byte length of the re-serialized body, and a new record each time', () => {
    const reader = nodeHeaderReader({ 'content-length': '5' }, body);
    const a = reader.toRecord();
    expect(a['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(body))));
    a.extra = 'changed';
    expect(reader.toRecord().extra).toBeUndefined();
  });
});

describe('describeHttpRequest', () => {
  it('describes the fast lane view as it describes a web Request with the same headers', () => {
    const headers = {
      'x-request-id': 'abc-1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'k=v',
      'x-fa-mcp-remote-address': '10.0.0.1',
      'content-type': 'application/json',
    };
    const described = (reader: { headers: HeaderReader }): RequestContext => {
      const rc: RequestContext = { requestId: '', era: '2025', transport: 'http', clientCapabilities: {} };
      describeHttpRequest(reader, rc);
      return rc;
    };
    const fromNode = described({ headers: nodeHeaderReader(headers, body) });
    const web = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
    web.headers.set('content-length', String(Buffer.byteLength(JSON.stringify(body))));
    const fromWeb = described({ headers: web.headers });
    expect(fromNode).toEqual(fromWeb);
    expect(Object.keys(fromNode.headers ?? {})).toEqual(Object.keys(fromWeb.headers ?? {}));
    expect(fromNode).toMatchObject({ requestId: 'abc-1', remoteAddress: '10.0.0.1', trace: { traceId: '0af7651916cd43dd8448eb211c80319c', tracestate: 'k=v' } });
  });
});
