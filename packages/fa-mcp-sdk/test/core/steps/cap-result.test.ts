import { describe, expect, it } from 'vitest';
import { capResult, capResultStep, TRUNCATION_MARKER } from '../../../src/core/steps/cap-result.js';
import type { IToolHandlerStructuredResponse, ITextContent } from '../../../src/core/types.js';
import { makeOp } from '../helpers.js';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const texts = (r: IToolHandlerStructuredResponse) => r.content.filter((c): c is ITextContent => c.type === 'text').map((c) => c.text);

describe('cap-result', () => {
  it('a result under the cap is returned untouched', () => {
    const result: IToolHandlerStructuredResponse = { content: [{ type: 'text', text: 'small' }], structuredContent: { a: 1 } };
    expect(capResult(result, 10_000)).toBe(result);
    expect(capResult(result, bytes(result))).toBe(result);
  });

  it('a result over the cap is truncated: marker is the last text block, size within the cap, _meta says so', () => {
    const cap = 4_096;
    const result: IToolHandlerStructuredResponse = { content: [{ type: 'text', text: 'x'.repeat(50_000) }] };
    const out = capResult(result, cap);
    expect(bytes(out)).toBeLessThanOrEqual(cap);
    expect(out.content.at(-1)).toEqual({ type: 'text', text: TRUNCATION_MARKER });
    expect(texts(out)[0]?.length).toBeGreaterThan(1_000);
    expect(texts(out)[0]).toMatch(/^x+$/);
    expect(out._meta?.['fa-mcp/truncated']).toEqual({ originalBytes: bytes(result), maxBytes: cap });
  });

  it('the marker says what happened, in words a model reads', () => {
    expect(TRUNCATION_MARKER).toMatch(/TRUNCATED/);
    expect(TRUNCATION_MARKER).toContain('maxToolResultBytes');
  });

  it('multibyte UTF-8 text is not cut inside a character', () => {
    for (const unit of ['é', '日本', '🙂', 'a€', 'ab😀c']) {
      for (const cap of [2_000, 2_001, 2_002, 2_003]) {
        const out = capResult({ content: [{ type: 'text', text: unit.repeat(20_000) }] }, cap);
        const kept = texts(out)[0] ?? '';
        expect(kept).not.toContain('\uFFFD');
        // a clean cut: the kept text is a prefix of the original
        expect(unit.repeat(20_000).startsWith(kept)).toBe(true);
        expect(bytes(out)).toBeLessThanOrEqual(cap);
      }
    }
  });

  it('keeps leading blocks that fit and drops the ones that do not', () => {
    const image = { type: 'image' as const, data: 'A'.repeat(40_000), mimeType: 'image/png' };
    const out = capResult({ content: [{ type: 'text', text: 'header' }, image, { type: 'text', text: 'tail' }] }, 4_096);
    expect(out.content).toEqual([{ type: 'text', text: 'header' }, { type: 'text', text: TRUNCATION_MARKER }]);
    expect(bytes(out)).toBeLessThanOrEqual(4_096);
  });

  it('keeps isError and the handler _meta', () => {
    const out = capResult({ content: [{ type: 'text', text: 'e'.repeat(10_000) }], isError: true, _meta: { trace: 't1' } }, 2_048);
    expect(out.isError).toBe(true);
    expect(out._meta).toMatchObject({ trace: 't1', 'fa-mcp/truncated': { maxBytes: 2_048 } });
  });

  it('text that JSON escapes (a mirrored JSON document, quotes, newlines, control characters) still ends within the cap', () => {
    const cap = 16_384;
    const doc = { rows: Array.from({ length: 5_000 }, (_, i) => ({ i, name: `row ${i}` })) };
    const cases: Array<[string, IToolHandlerStructuredResponse]> = [
      ['a mirrored JSON document', { content: [{ type: 'text', text: JSON.stringify(doc) }], structuredContent: doc }],
      ...['"', '\n', '\\', '\u0001'].map((ch): [string, IToolHandlerStructuredResponse] => [
        `text of ${JSON.stringify(ch)}`,
        { content: [{ type: 'text', text: ch.repeat(100_000) }] },
      ]),
    ];
    for (const [label, result] of cases) {
      const out = capResult(result, cap);
      expect(bytes(out), label).toBeLessThanOrEqual(cap);
      expect(out.content.at(-1), label).toEqual({ type: 'text', text: TRUNCATION_MARKER });
    }
  });

  it('a large _meta from the handler does not push the capped result over the cap', () => {
    const cap = 4_096;
    const out = capResult({ content: [{ type: 'text', text: 'ok' }], _meta: { debug: 'd'.repeat(20_000) } }, cap);
    expect(bytes(out)).toBeLessThanOrEqual(cap);
    expect(out._meta?.['fa-mcp/truncated']).toBeDefined();
  });

  it('as a step it reads the cap at call time and applies to tools/call only', async () => {
    let cap = 1_000_000;
    const step = capResultStep(() => cap);
    expect(step.methods).toEqual(['tools/call']);
    const big = { content: [{ type: 'text' as const, text: 'y'.repeat(20_000) }] };
    expect(await step.run(makeOp(), async () => big)).toBe(big);
    cap = 4_096;
    const out = (await step.run(makeOp(), async () => big)) as IToolHandlerStructuredResponse;
    expect(out.content.at(-1)).toEqual({ type: 'text', text: TRUNCATION_MARKER });
  });
});
