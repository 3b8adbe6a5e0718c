import { describe, expect, it } from 'vitest';
import { mirrorStructured, mirrorStructuredStep } from '../../../src/core/steps/mirror-structured.js';
import type { IToolHandlerStructuredResponse } from '../../../src/core/types.js';
import { makeOp } from '../helpers.js';

describe('mirror-structured', () => {
  it('mirrors structuredContent into content[0].text', () => {
    const out = mirrorStructured({ content: [], structuredContent: { a: 1, b: [true] } });
    expect(out.content[0]).toEqual({ type: 'text', text: '{"a":1,"b":[true]}' });
    expect(JSON.parse((out.content[0] as { text: string }).text)).toEqual(out.structuredContent);
  });

  it('keeps the other blocks after the mirror', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    const out = mirrorStructured({ content: [{ type: 'text', text: 'Summary' }, image], structuredContent: { n: 2 } });
    expect(out.content).toEqual([{ type: 'text', text: '{"n":2}' }, { type: 'text', text: 'Summary' }, image]);
  });

  it('is idempotent when the mirror is already there', () => {
    const result: IToolHandlerStructuredResponse = { content: [{ type: 'text', text: '{"x":1}' }], structuredContent: { x: 1 } };
    expect(mirrorStructured(result)).toBe(result);
    const twice = mirrorStructured(mirrorStructured({ content: [], structuredContent: { y: 2 } }));
    expect(twice.content).toEqual([{ type: 'text', text: '{"y":2}' }]);
  });

  it('moves an existing mirror to the front instead of duplicating it', () => {
    const out = mirrorStructured({ content: [{ type: 'text', text: 'note' }, { type: 'text', text: '{"x":1}' }], structuredContent: { x: 1 } });
    expect(out.content).toEqual([{ type: 'text', text: '{"x":1}' }, { type: 'text', text: 'note' }]);
  });

  it('a result without structuredContent is left alone', () => {
    const result: IToolHandlerStructuredResponse = { content: [{ type: 'text', text: 'plain' }] };
    expect(mirrorStructured(result)).toBe(result);
  });

  it('does not mutate the handler result', () => {
    const result: IToolHandlerStructuredResponse = { content: [], structuredContent: { z: 0 } };
    mirrorStructured(result);
    expect(result.content).toEqual([]);
  });

  it('as a step it applies to the result of next()', async () => {
    const step = mirrorStructuredStep();
    expect(step.methods).toEqual(['tools/call']);
    const out = (await step.run(makeOp(), async () => ({ content: [], structuredContent: { ok: true } }))) as IToolHandlerStructuredResponse;
    expect(out.content[0]).toEqual({ type: 'text', text: '{"ok":true}' });
  });
});
