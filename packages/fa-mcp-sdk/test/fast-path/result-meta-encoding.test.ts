/**
 * The fast paths write a tools/call result with a plain `_meta` themselves (an
 * argument-error result among them) instead of handing it to the SDK: `_meta`
 * first, as the SDK's result schema outputs it; on 2026-07-28 the server's
 * identity joins it. A `_meta` with keys the SDK's schemas know is left to the
 * SDK. parity.test.ts and session-parity.test.ts prove the bytes equal the SDK's.
 */
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { argumentErrorResult } from '../../src/core/argument-errors.js';
import { encodeFastResult } from '../../src/protocol/fast-call-results.js';

const serverInfo = { name: 'srv', version: '1.0.0' };
const invalid = argumentErrorResult('Invalid arguments for tool echo: text must be string', { field: 'text', reason: 'must be string' });

describe('fast encoding of a result _meta', () => {
  it('2025 era: the argument-error result, _meta first', () => {
    const encoded = encodeFastResult('tools/call', invalid);
    expect(JSON.stringify(encoded)).toBe(
      '{"_meta":{"fa-mcp/validation":{"field":"text","reason":"must be string"}},"content":[{"type":"text","text":"Invalid arguments for tool echo: text must be string"}],"isError":true}',
    );
  });

  it("2026-07-28: the server's identity joins the result's own _meta, in its place", () => {
    const encoded = encodeFastResult('tools/call', invalid, { serverInfo, cacheHints: undefined });
    expect(Object.keys(encoded ?? {})).toEqual(['_meta', 'content', 'isError', 'resultType']);
    expect(encoded?._meta).toEqual({ 'fa-mcp/validation': { field: 'text', reason: 'must be string' }, [SERVER_INFO_META_KEY]: serverInfo });
    // The result the pipeline made is not changed by the stamp.
    expect(invalid._meta).toEqual({ 'fa-mcp/validation': { field: 'text', reason: 'must be string' } });
    const plain = encodeFastResult('tools/call', { content: [{ type: 'text', text: 'x' }] }, { serverInfo, cacheHints: undefined });
    expect(Object.keys(plain ?? {})).toEqual(['content', 'resultType', '_meta']);
  });

  it('a _meta with keys the SDK knows, or one that is not an object, is the SDK’s to encode', () => {
    const content = [{ type: 'text', text: 'x' }];
    expect(encodeFastResult('tools/call', { content, _meta: { progressToken: 1 } })).toBeUndefined();
    expect(encodeFastResult('tools/call', { content, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } })).toBeUndefined();
    expect(encodeFastResult('tools/call', { content, _meta: ['x'] })).toBeUndefined();
  });
});
