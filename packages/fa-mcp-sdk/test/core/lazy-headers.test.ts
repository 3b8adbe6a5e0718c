/**
 * The headers of a request reach its context and the handler's params as a
 * record built on first read (core/lazy-headers.ts): a request whose handler
 * never reads them does not pay for the record, and one that does sees the
 * same record as before, everywhere the same object.
 */
import { describe, expect, it } from 'vitest';
import { defineLazyHeaders, shareHeaders } from '../../src/core/lazy-headers.js';
import { createToolExecutor } from '../../src/core/tool-executor.js';
import type { IToolHandlerParams } from '../../src/core/types.js';
import { contextFromFacts } from '../../src/protocol/request-context-builder.js';
import { describeHttpRequest } from '../../src/transport/http/describe-request.js';
import { nodeHeaderReader } from '../../src/transport/http/node-headers.js';
import { makeOp, tool } from './helpers.js';

const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } };
const nodeHeaders = { 'x-request-id': 'req-1', 'x-tenant': 'acme', 'content-length': '3', accept: 'application/json' };

/** A node header view that counts how often its record is built. */
function countingView() {
  const view = nodeHeaderReader(nodeHeaders, body);
  const counter = { built: 0 };
  const toRecord = view.toRecord.bind(view);
  view.toRecord = () => {
    counter.built++;
    return toRecord();
  };
  return { view, counter };
}

const contextOf = (headers: ReturnType<typeof countingView>['view']) =>
  contextFromFacts({ era: '2025', transport: 'http', describeHttp: describeHttpRequest }, { http: { headers } });

describe('request headers built on first read', () => {
  it('a context whose headers nobody reads never builds them; reading builds them once, the same object each time', () => {
    const { view, counter } = countingView();
    const rc = contextOf(view);
    expect(rc.requestId).toBe('req-1');
    expect(counter.built).toBe(0);
    const first = rc.headers;
    expect(first).toEqual(nodeHeaderReader(nodeHeaders, body).toRecord());
    expect(rc.headers).toBe(first);
    expect(counter.built).toBe(1);
  });

  it('listing, spreading and serializing the context show the headers as a plain property would', () => {
    const { view } = countingView();
    const rc = contextOf(view);
    expect(Object.keys(rc)).toContain('headers');
    expect({ ...rc }.headers).toEqual(rc.headers);
    expect(JSON.parse(JSON.stringify(rc)).headers['x-tenant']).toBe('acme');
  });

  it('assigning replaces them with the value given', () => {
    const { view, counter } = countingView();
    const rc = contextOf(view);
    rc.headers = { mine: '1' };
    expect(rc.headers).toEqual({ mine: '1' });
    const to: { headers?: Record<string, string> } = {};
    expect(shareHeaders(rc, to)).toBe(true);
    expect(to.headers).toBe(rc.headers);
    expect(counter.built).toBe(0);
  });

  it("the handler's params carry the context's record, built only when the handler reads it", async () => {
    const { view, counter } = countingView();
    const rc = contextOf(view);
    const run = (read: boolean) =>
      createToolExecutor({
        configuredTimeoutMs: () => undefined,
        defaultTimeoutMs: 1_000,
        defaultHandler: (p: IToolHandlerParams) => ({ content: [{ type: 'text', text: read ? String(p.headers?.['x-tenant']) : 'unread' }] }),
      })(makeOp({ name: 'echo' }, { tool: tool('echo'), ctx: rc }));
    expect(await run(false)).toEqual({ content: [{ type: 'text', text: 'unread' }] });
    expect(counter.built).toBe(0);
    expect(await run(true)).toEqual({ content: [{ type: 'text', text: 'acme' }] });
    expect(counter.built).toBe(1);
    let seen: IToolHandlerParams | undefined;
    await createToolExecutor({ configuredTimeoutMs: () => undefined, defaultTimeoutMs: 1_000, defaultHandler: (p) => ((seen = p), { content: [] }) })(
      makeOp({ name: 'echo' }, { tool: tool('echo'), ctx: rc }),
    );
    expect(seen?.headers).toBe(rc.headers);
  });

  it('a context without HTTP headers gives the handler none', () => {
    const to: { headers?: Record<string, string> } = {};
    expect(shareHeaders({}, to)).toBe(false);
    expect('headers' in to).toBe(false);
    const lazy = defineLazyHeaders({}, () => ({ a: '1' }));
    expect(shareHeaders(lazy, to)).toBe(true);
    expect(to.headers).toEqual({ a: '1' });
  });
});
