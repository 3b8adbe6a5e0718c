import { describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { rememberHttpFacts } from '../../src/protocol/request-facts.js';
import { describeHttpRequest } from '../../src/transport/http/describe-request.js';
import { nodeHeaderReader } from '../../src/transport/http/node-headers.js';
import type { RequestContext } from '../../src/core/request-context.js';
import type { HeaderReader } from '../../src/protocol/request-context-builder.js';

/** What body-length.ts gives for a body of 123 bytes. */
const length = '123';

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
      const record = nodeHeaderReader(headers, length).toRecord();
      const expected = viaForEach(nodeHeaderReader(headers, length));
      expect(record).toEqual(expected);
      expect(Object.keys(record)).toEqual(Object.keys(expected));
    });
  }

  it('gives content-length as the body length it was given (not the declared one), as a plain field', () => {
    const reader = nodeHeaderReader({ 'content-length': '5', host: 'h', accept: 'a' }, length);
    const record = reader.toRecord();
    expect(Object.keys(record)).toEqual(['accept', 'content-length', 'host']);
    expect(Object.getOwnPropertyDescriptor(record, 'content-length')).toEqual({ value: length, writable: true, enumerable: true, configurable: true });
    expect(reader.get('content-length')).toBe(length);
    expect(reader.get('Content-Length')).toBe(length);
  });

  it('gives no content-length for a request without a body, and a new record each time', () => {
    const reader = nodeHeaderReader({ 'content-length': '5', accept: 'a' }, undefined);
    const a = reader.toRecord();
    expect(a).toEqual({ accept: 'a' });
    expect(reader.get('content-length')).toBeNull();
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
      'content-type': 'application/json',
    };
    // What the front established: kept beside a web Request's headers, given along with the fast lane's view.
    const facts = { requestId: 'abc-1', remoteAddress: '10.0.0.1' };
    const described = (reader: { headers: HeaderReader; facts?: typeof facts }): RequestContext => {
      const rc: RequestContext = { requestId: '', era: '2025', transport: 'http', clientCapabilities: {} };
      describeHttpRequest(reader, rc);
      return rc;
    };
    const fromNode = described({ headers: nodeHeaderReader(headers, length), facts });
    const web = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: 'x'.repeat(Number(length)) });
    web.headers.set('content-length', length);
    rememberHttpFacts(web.headers, facts);
    const fromWeb = described({ headers: web.headers });
    expect(fromNode).toEqual(fromWeb);
    expect(Object.keys(fromNode.headers ?? {})).toEqual(Object.keys(fromWeb.headers ?? {}));
    expect(fromNode).toMatchObject({ requestId: 'abc-1', remoteAddress: '10.0.0.1', trace: { traceId: '0af7651916cd43dd8448eb211c80319c', tracestate: 'k=v' } });
  });
});
