import { describe, expect, it } from 'vitest';
import {
  audioContent, embeddedResourceContent, formatContentResult, formatToolError, formatToolResult, getJsonFromResult, imageContent,
  jsonContent, resourceLinkContent, textContent,
} from '../../src/core/results.js';

describe('formatToolResult', () => {
  it('a string is one text block', () => {
    expect(formatToolResult('hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('an object is structuredContent mirrored into content[0].text', () => {
    const value = { temp: 3, unit: 'C' };
    const r = formatToolResult(value);
    expect(r).toEqual({ content: [{ type: 'text', text: '{"temp":3,"unit":"C"}' }], structuredContent: value });
  });

  it('an array is a JSON text block, not structuredContent (which must be an object)', () => {
    const r = formatToolResult([1, 'two']);
    expect(r).toEqual({ content: [{ type: 'text', text: '[1,"two"]' }] });
    expect('structuredContent' in r).toBe(false);
  });

  it('other JSON values are JSON text; undefined becomes null', () => {
    expect(formatToolResult(42)).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(formatToolResult(null)).toEqual({ content: [{ type: 'text', text: 'null' }] });
    expect(formatToolResult(undefined)).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });
});

describe('formatToolError', () => {
  it('a message is an isError text result', () => {
    expect(formatToolError('not found')).toEqual({ content: [{ type: 'text', text: 'not found' }], isError: true });
  });

  it('an Error gives its message; details become structuredContent with the error', () => {
    expect(formatToolError(new Error('quota exceeded'), { quota: 5 })).toEqual({
      content: [{ type: 'text', text: 'quota exceeded' }],
      isError: true,
      structuredContent: { error: 'quota exceeded', quota: 5 },
    });
  });
});

describe('content helpers', () => {
  it('build the MCP shapes', () => {
    expect(textContent('t')).toEqual({ type: 'text', text: 't' });
    expect(jsonContent({ a: 1 })).toEqual({ type: 'text', text: '{\n  "a": 1\n}' });
    expect(imageContent('AAA=', 'image/png')).toEqual({ type: 'image', data: 'AAA=', mimeType: 'image/png' });
    expect(audioContent('BBB=', 'audio/wav')).toEqual({ type: 'audio', data: 'BBB=', mimeType: 'audio/wav' });
    expect(resourceLinkContent({ uri: 'test://r', name: 'r', mimeType: 'text/plain' })).toEqual({
      type: 'resource_link',
      uri: 'test://r',
      name: 'r',
      mimeType: 'text/plain',
    });
    expect(embeddedResourceContent({ uri: 'test://r', text: 'body' })).toEqual({ type: 'resource', resource: { uri: 'test://r', text: 'body' } });
  });

  it('formatContentResult with and without structuredContent', () => {
    const content = [textContent('a')];
    expect(formatContentResult(content)).toEqual({ content });
    expect(formatContentResult(content, { a: 1 })).toEqual({ content, structuredContent: { a: 1 } });
  });
});

describe('getJsonFromResult', () => {
  it('reads structuredContent first', () => {
    expect(getJsonFromResult({ content: [{ type: 'text', text: '{"other":true}' }], structuredContent: { a: 1 } })).toEqual({ a: 1 });
  });

  it('otherwise parses the first text block (skipping non-text blocks)', () => {
    expect(getJsonFromResult({ content: [{ type: 'image', data: 'x', mimeType: 'image/png' }, { type: 'text', text: '[1,2]' }] })).toEqual([1, 2]);
    expect(getJsonFromResult<{ b: number }>(formatToolResult([{ b: 2 }])) ).toEqual([{ b: 2 }]);
  });

  it('round-trips formatToolResult', () => {
    expect(getJsonFromResult(formatToolResult({ deep: { x: [1] } }))).toEqual({ deep: { x: [1] } });
  });

  it('throws a TypeError for what is not a result', () => {
    expect(() => getJsonFromResult(null)).toThrow(TypeError);
    expect(() => getJsonFromResult('text')).toThrow(TypeError);
    expect(() => getJsonFromResult([])).toThrow(TypeError);
  });

  it('throws a TypeError when there is no structuredContent and no text block', () => {
    expect(() => getJsonFromResult({ content: [] })).toThrow(/no structuredContent and no text block/);
    expect(() => getJsonFromResult({})).toThrow(TypeError);
  });

  it('throws a SyntaxError when the text is not JSON', () => {
    expect(() => getJsonFromResult({ content: [{ type: 'text', text: 'plain words' }] })).toThrow(SyntaxError);
  });
});
