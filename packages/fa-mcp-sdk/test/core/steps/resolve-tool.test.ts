import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/core/errors.js';
import { Registry } from '../../../src/core/registry.js';
import { resolveToolStep } from '../../../src/core/steps/resolve-tool.js';
import { caught, makeOp, tool } from '../helpers.js';

describe('resolve step', () => {
  const registry = new Registry({ tools: [tool('echo'), tool('hidden')], excludeTools: ['hidden'] });
  const step = resolveToolStep(registry);

  it('is limited to tools/call', () => {
    expect(step.name).toBe('resolve');
    expect(step.methods).toEqual(['tools/call']);
  });

  it('sets op.tool for a known tool and continues', async () => {
    const op = makeOp({ name: 'echo' });
    const next = vi.fn(async () => 'done');
    expect(await step.run(op, next)).toBe('done');
    expect(op.tool?.name).toBe('echo');
    expect(next).toHaveBeenCalledOnce();
  });

  it('an unknown tool is ValidationError -32602 with data.field "name"', async () => {
    const next = vi.fn(async () => 'never');
    const err = await caught(() => step.run(makeOp({ name: 'nope' }), next));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe(-32602);
    expect((err as ValidationError).data).toMatchObject({ field: 'name' });
    expect((err as Error).message).toContain('nope');
    expect(next).not.toHaveBeenCalled();
  });

  it('an excluded tool is unknown too', async () => {
    const err = await caught(() => step.run(makeOp({ name: 'hidden' }), async () => 'never'));
    expect((err as ValidationError).code).toBe(-32602);
    expect((err as ValidationError).data).toMatchObject({ field: 'name' });
  });

  it('a missing or non-string name is -32602 "is required"', async () => {
    for (const params of [{}, { name: 42 }]) {
      const err = await caught(() => step.run(makeOp(params), async () => 'never'));
      expect((err as ValidationError).code).toBe(-32602);
      expect((err as ValidationError).data).toEqual({ field: 'name', reason: 'is required' });
    }
  });
});
