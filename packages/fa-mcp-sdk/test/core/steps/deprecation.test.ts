import { describe, expect, it, vi } from 'vitest';
import { DeprecationWarnings } from '../../../src/core/deprecation.js';
import { deprecationStep } from '../../../src/core/steps/deprecation.js';
import { makeOp, recordingLogger, tool } from '../helpers.js';

const HOUR = 60 * 60 * 1000;

describe('deprecation step', () => {
  it('warns at the first call, not again within the hour, and again after it; the call proceeds each time', async () => {
    const logger = recordingLogger();
    let now = 1_000_000;
    const step = deprecationStep(new DeprecationWarnings(logger, () => now));
    const old = tool('old_tool', { deprecated: { until: '2026-08-28', replacedBy: 'new_tool' } });
    const next = vi.fn(async () => 'ran');

    expect(await step.run(makeOp({ name: 'old_tool' }, { tool: old }), next)).toBe('ran');
    expect(logger.entries.filter((e) => e.level === 'warn')).toHaveLength(1);
    expect(logger.entries[0]?.msg).toContain('old_tool');
    expect(logger.entries[0]?.obj).toMatchObject({ kind: 'tool', name: 'old_tool', until: '2026-08-28', replacedBy: 'new_tool' });

    now += HOUR - 1;
    await step.run(makeOp({ name: 'old_tool' }, { tool: old }), next);
    expect(logger.entries).toHaveLength(1);

    now += 1;
    await step.run(makeOp({ name: 'old_tool' }, { tool: old }), next);
    expect(logger.entries).toHaveLength(2);
    expect(next).toHaveBeenCalledTimes(3);
  });

  it('counts the hour per tool', async () => {
    const logger = recordingLogger();
    const step = deprecationStep(new DeprecationWarnings(logger, () => 5));
    const a = tool('a_old', { deprecated: { until: '2026-01-01' } });
    const b = tool('b_old', { deprecated: { until: '2026-01-01' } });
    await step.run(makeOp({}, { tool: a }), async () => 'x');
    await step.run(makeOp({}, { tool: b }), async () => 'x');
    await step.run(makeOp({}, { tool: a }), async () => 'x');
    expect(logger.entries.map((e) => (e.obj as { name: string }).name)).toEqual(['a_old', 'b_old']);
  });

  it('a tool that is not deprecated logs nothing', async () => {
    const logger = recordingLogger();
    const step = deprecationStep(new DeprecationWarnings(logger, () => 0));
    expect(await step.run(makeOp({}, { tool: tool('fresh') }), async () => 'x')).toBe('x');
    expect(logger.entries).toEqual([]);
  });
});
