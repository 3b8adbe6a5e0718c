import { describe, expect, it, vi } from 'vitest';
import { Pipeline, type PipelineStep } from '../../src/core/pipeline.js';
import { makeOp } from './helpers.js';

/** A step that records when it enters and leaves. */
function tracing(name: string, trace: string[], methods?: string[]): PipelineStep {
  return {
    name,
    ...(methods ? { methods } : {}),
    async run(_op, next) {
      trace.push(`>${name}`);
      const out = await next();
      trace.push(`<${name}`);
      return out;
    },
  };
}

describe('Pipeline', () => {
  it('runs steps in order around the terminal, and returns the terminal result through them', async () => {
    const trace: string[] = [];
    const p = new Pipeline([tracing('a', trace), tracing('b', trace), tracing('c', trace)]);
    const out = await p.run(makeOp(), async () => {
      trace.push('terminal');
      return 'result';
    });
    expect(out).toBe('result');
    expect(trace).toEqual(['>a', '>b', '>c', 'terminal', '<c', '<b', '<a']);
  });

  it('a step may transform the result on the way out', async () => {
    const p = new Pipeline([{ name: 'upper', run: async (_op, next) => String(await next()).toUpperCase() }]);
    expect(await p.run(makeOp(), async () => 'quiet')).toBe('QUIET');
  });

  it('the methods filter limits a step to its methods', async () => {
    const trace: string[] = [];
    const p = new Pipeline([tracing('calls', trace, ['tools/call']), tracing('all', trace), tracing('lists', trace, ['tools/list'])]);
    await p.run(makeOp({}, { method: 'tools/list' }), async () => 'x');
    expect(trace).toEqual(['>all', '>lists', '<lists', '<all']);
    trace.length = 0;
    await p.run(makeOp({}, { method: 'prompts/get' }), async () => 'x');
    expect(trace).toEqual(['>all', '<all']);
  });

  it('the constructor copies the list: later edits of the caller array change nothing', async () => {
    const trace: string[] = [];
    const steps = [tracing('a', trace)];
    const p = new Pipeline(steps);
    steps.push(tracing('sneaky', trace));
    expect(p.names()).toEqual(['a']);
  });

  describe('use()', () => {
    const base = () => new Pipeline([tracing('resolve', []), tracing('validate-input', []), tracing('cap-result', [])]);

    it('appends at the end (just before the terminal) by default', () => {
      const p = base();
      p.use(tracing('audit', []));
      expect(p.names()).toEqual(['resolve', 'validate-input', 'cap-result', 'audit']);
    });

    it('inserts before an anchor', () => {
      const p = base();
      p.use(tracing('tenant', []), { before: 'validate-input' });
      expect(p.names()).toEqual(['resolve', 'tenant', 'validate-input', 'cap-result']);
    });

    it('inserts after an anchor', () => {
      const p = base();
      p.use(tracing('cache', []), { after: 'validate-input' });
      expect(p.names()).toEqual(['resolve', 'validate-input', 'cache', 'cap-result']);
      p.use(tracing('last', []), { after: 'cap-result' });
      expect(p.names().at(-1)).toBe('last');
      p.use(tracing('first', []), { before: 'resolve' });
      expect(p.names()[0]).toBe('first');
    });

    it('an unknown anchor throws and names it, adding nothing', () => {
      const p = base();
      expect(() => p.use(tracing('x', []), { before: 'no-such-step' })).toThrow(/"no-such-step"/);
      expect(() => p.use(tracing('x', []), { after: 'nope' })).toThrow(/"nope"/);
      expect(p.names()).toEqual(['resolve', 'validate-input', 'cap-result']);
    });

    it('an added step actually runs where it was put', async () => {
      const trace: string[] = [];
      const p = new Pipeline([tracing('a', trace), tracing('b', trace)]);
      p.use(tracing('mid', trace), { after: 'a' });
      await p.run(makeOp(), async () => 'x');
      expect(trace).toEqual(['>a', '>mid', '>b', '<b', '<mid', '<a']);
    });
  });

  it('a step that does not call next short-circuits: later steps and the terminal are not called', async () => {
    const later = vi.fn(async (_op, next: () => Promise<unknown>) => next());
    const terminal = vi.fn(async () => 'terminal');
    const p = new Pipeline([
      { name: 'cache', run: async () => 'cached' },
      { name: 'later', run: later },
    ]);
    expect(await p.run(makeOp(), terminal)).toBe('cached');
    expect(later).not.toHaveBeenCalled();
    expect(terminal).not.toHaveBeenCalled();
  });

  it('an error of a step propagates to the caller and stops the chain', async () => {
    const terminal = vi.fn(async () => 'x');
    const p = new Pipeline([
      {
        name: 'deny',
        run: async () => {
          throw new Error('denied');
        },
      },
    ]);
    await expect(p.run(makeOp(), terminal)).rejects.toThrow('denied');
    expect(terminal).not.toHaveBeenCalled();
  });

  it('an error of the terminal propagates through the steps (which may observe it)', async () => {
    const seen: unknown[] = [];
    const p = new Pipeline([
      {
        name: 'observer',
        async run(_op, next) {
          try {
            return await next();
          } catch (err) {
            seen.push(err);
            throw err;
          }
        },
      },
    ]);
    const boom = new Error('terminal failed');
    await expect(
      p.run(makeOp(), async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(seen).toEqual([boom]);
  });

  it('a step or terminal that throws instead of rejecting still rejects (never throws out of run)', async () => {
    const boom = new Error('thrown, not rejected');
    const throwing: PipelineStep = {
      name: 'sync-throw',
      run: () => {
        throw boom;
      },
    };
    const first = new Pipeline([throwing]);
    const out = first.run(makeOp(), async () => 'x');
    await expect(out).rejects.toBe(boom);

    const seen: unknown[] = [];
    const observer: PipelineStep = { name: 'observer', run: (_op, next) => next().catch((err: unknown) => (seen.push(err), 'recovered')) };
    const inner = new Pipeline([observer, throwing]);
    expect(await inner.run(makeOp(), async () => 'x')).toBe('recovered');
    const terminal = new Pipeline([observer]);
    expect(
      await terminal.run(makeOp(), (() => {
        throw boom;
      }) as unknown as () => Promise<unknown>),
    ).toBe('recovered');
    expect(seen).toEqual([boom, boom]);
  });

  it('a step returning a plain value (no async) still gives the caller and the step before it a promise', async () => {
    const plain = { name: 'plain', run: () => 'value' } as unknown as PipelineStep;
    const outer: PipelineStep = { name: 'outer', run: (_op, next) => next().then((v) => `${String(v)}!`) };
    expect(await new Pipeline([outer, plain]).run(makeOp(), async () => 'x')).toBe('value!');
  });

  it('a step added after runs takes part in the next run of every method', async () => {
    const trace: string[] = [];
    const p = new Pipeline([tracing('calls', trace, ['tools/call'])]);
    await p.run(makeOp(), async () => 'x');
    await p.run(makeOp({}, { method: 'tools/list' }), async () => 'x');
    p.use(tracing('late', trace));
    trace.length = 0;
    await p.run(makeOp(), async () => 'x');
    await p.run(makeOp({}, { method: 'tools/list' }), async () => 'x');
    expect(trace).toEqual(['>calls', '>late', '<late', '<calls', '>late', '<late']);
  });

  it('steps share the operation (state bag, tool)', async () => {
    const p = new Pipeline([
      {
        name: 'set',
        async run(op, next) {
          op.state.set('tenant', 'acme');
          return next();
        },
      },
    ]);
    const out = await p.run(makeOp(), async (op) => op.state.get('tenant'));
    expect(out).toBe('acme');
  });
});
