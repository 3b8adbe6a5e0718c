import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { describePrompt, renderPrompt } from '../../src/core/prompts.js';
import type { IPromptData } from '../../src/core/types.js';
import { caught, makeCtx } from './helpers.js';

const review: IPromptData = {
  name: 'code_review',
  title: 'Code review',
  description: 'Review a piece of code.',
  arguments: [
    { name: 'code', required: true, description: 'The code', complete: ['x'] },
    { name: 'language' },
  ],
  content: (args) => `Review this ${args.language ?? 'code'}:\n${args.code}`,
};

describe('renderPrompt', () => {
  it('string content becomes one user text message, with the description', async () => {
    const out = await renderPrompt({ name: 'hello', description: 'Says hi.', content: 'Hi there' }, {}, makeCtx());
    expect(out).toEqual({ description: 'Says hi.', messages: [{ role: 'user', content: { type: 'text', text: 'Hi there' } }] });
  });

  it('a function receives the arguments and the context', async () => {
    const ctx = makeCtx({ requestId: 'r-p' });
    const content = vi.fn(() => 'ok');
    await renderPrompt({ name: 'f', arguments: [{ name: 'a' }], content }, { a: '1' }, ctx);
    expect(content).toHaveBeenCalledWith({ a: '1' }, ctx);
    const out = await renderPrompt(review, { code: 'x = 1', language: 'python' }, makeCtx());
    expect(out.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review this python:\nx = 1' } }]);
  });

  it('a full result is returned as is', async () => {
    const result = { messages: [{ role: 'assistant' as const, content: { type: 'text' as const, text: 'Sure.' } }] };
    expect(await renderPrompt({ name: 'r', content: async () => result }, {}, makeCtx())).toBe(result);
  });

  it('a missing (or empty) required argument is ValidationError -32602 naming it; content not rendered', async () => {
    const content = vi.fn(() => 'never');
    const p: IPromptData = { ...review, content };
    const cases: Array<Record<string, string>> = [{}, { code: '' }, { language: 'go' }];
    for (const args of cases) {
      const err = await caught(() => renderPrompt(p, args, makeCtx()));
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe(-32602);
      expect((err as ValidationError).data).toEqual({ field: 'code', reason: 'is required' });
    }
    expect(content).not.toHaveBeenCalled();
  });

  it('an unknown argument is ValidationError -32602 naming it', async () => {
    const err = await caught(() => renderPrompt(review, { code: 'x', colour: 'red' }, makeCtx()));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).data).toEqual({ field: 'colour', reason: 'is not allowed' });
    expect((err as Error).message).toContain('colour');
  });

  it('a prompt without arguments refuses any argument', async () => {
    await expect(renderPrompt({ name: 'plain', content: 'x' }, { a: '1' }, makeCtx())).rejects.toMatchObject({ code: -32602 });
  });
});

describe('describePrompt', () => {
  it('lists name, title, description and arguments without the completion source', () => {
    expect(describePrompt(review)).toEqual({
      name: 'code_review',
      title: 'Code review',
      description: 'Review a piece of code.',
      arguments: [{ name: 'code', description: 'The code', required: true }, { name: 'language' }],
    });
  });

  it('a deprecated prompt shows the marker in front of its description', () => {
    const d = describePrompt({ name: 'old', description: 'Old one.', content: 'x', deprecated: { until: '2026-08-28', replacedBy: 'new_one' } });
    expect(d.description).toBe('[DEPRECATED until 2026-08-28, use new_one] Old one.');
  });
});
