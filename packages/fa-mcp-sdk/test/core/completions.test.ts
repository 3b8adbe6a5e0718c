import { describe, expect, it, vi } from 'vitest';
import { complete, hasCompletions, MAX_COMPLETION_VALUES } from '../../src/core/completions.js';
import { Registry } from '../../src/core/registry.js';

const languages = ['python', 'perl', 'php', 'rust', 'ruby'];

describe('complete', () => {
  const byLetter = vi.fn((value: string, ctx: { arguments?: Record<string, string> }) =>
    ['alpha', 'beta', 'gamma'].filter((v) => v.includes(value)).map((v) => `${ctx.arguments?.prefix ?? ''}${v}`),
  );
  const registry = new Registry({
    prompts: [
      {
        name: 'code_review',
        content: 'x',
        arguments: [
          { name: 'language', complete: languages },
          { name: 'word', complete: byLetter },
          { name: 'many', complete: Array.from({ length: 250 }, (_, i) => `v${i}`) },
          { name: 'free' },
        ],
      },
    ],
    resourceTemplates: [
      { uriTemplate: 'test://repo/{owner}/{name}', name: 'repo', read: () => 'x', complete: { owner: ['alice', 'albert', 'bob'] } },
    ],
  });

  it('filters a list by prefix', async () => {
    const out = await complete(registry, { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'p' } });
    expect(out).toEqual({ values: ['python', 'perl', 'php'], total: 3, hasMore: false });
  });

  it('an empty value offers everything; no match offers nothing', async () => {
    const all = await complete(registry, { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: '' } });
    expect(all.values).toEqual(languages);
    const none = await complete(registry, { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'z' } });
    expect(none).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('a function filters by itself and receives the context arguments', async () => {
    const out = await complete(registry, {
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'word', value: 'mm' },
      context: { arguments: { prefix: '>' } },
    });
    expect(out.values).toEqual(['>gamma']);
    expect(byLetter).toHaveBeenCalledWith('mm', { arguments: { prefix: '>' } });
  });

  it('returns at most 100 values with hasMore and total', async () => {
    const out = await complete(registry, { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'many', value: 'v' } });
    expect(MAX_COMPLETION_VALUES).toBe(100);
    expect(out.values).toHaveLength(100);
    expect(out.values[0]).toBe('v0');
    expect(out.total).toBe(250);
    expect(out.hasMore).toBe(true);
  });

  it('exactly 100 values is not "more"', async () => {
    const exact = new Registry({
      prompts: [{ name: 'p', content: 'x', arguments: [{ name: 'a', complete: Array.from({ length: 100 }, (_, i) => `x${i}`) }] }],
    });
    const out = await complete(exact, { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } });
    expect([out.values.length, out.total, out.hasMore]).toEqual([100, 100, false]);
  });

  it('completes resource-template variables', async () => {
    const out = await complete(registry, { ref: { type: 'ref/resource', uri: 'test://repo/{owner}/{name}' }, argument: { name: 'owner', value: 'al' } });
    expect(out.values).toEqual(['alice', 'albert']);
  });

  it('unknown prompt, argument, template or ref type: no values', async () => {
    const empty = { values: [], total: 0, hasMore: false };
    expect(await complete(registry, { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'language', value: '' } })).toEqual(empty);
    expect(await complete(registry, { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'free', value: '' } })).toEqual(empty);
    expect(await complete(registry, { ref: { type: 'ref/resource', uri: 'test://other' }, argument: { name: 'owner', value: '' } })).toEqual(empty);
    expect(await complete(registry, { ref: { type: 'ref/other', name: 'code_review' }, argument: { name: 'language', value: '' } })).toEqual(empty);
  });

  it('hasCompletions tells whether any prompt argument or template variable completes', () => {
    expect(hasCompletions(registry)).toBe(true);
    expect(hasCompletions(new Registry({ prompts: [{ name: 'p', content: 'x', arguments: [{ name: 'a' }] }] }))).toBe(false);
    expect(hasCompletions(new Registry({ resourceTemplates: [{ uriTemplate: 't://{a}', name: 't', read: () => '', complete: { a: ['x'] } }] }))).toBe(true);
  });
});
