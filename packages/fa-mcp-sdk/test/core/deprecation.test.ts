import { describe, expect, it } from 'vitest';
import {
  assertValidDeprecation, deprecationMarker, DeprecationWarnings, overdueDeprecations, withDeprecation,
} from '../../src/core/deprecation.js';
import { recordingLogger } from './helpers.js';

describe('deprecation marker', () => {
  it('reads [DEPRECATED until <date>, use <name>]', () => {
    expect(deprecationMarker({ until: '2026-08-28', replacedBy: 'new_tool' })).toBe('[DEPRECATED until 2026-08-28, use new_tool]');
  });

  it('without a replacement there is no "use" part', () => {
    expect(deprecationMarker({ until: '2026-08-28' })).toBe('[DEPRECATED until 2026-08-28]');
  });
});

describe('withDeprecation', () => {
  it('puts the marker in front of the description', () => {
    expect(withDeprecation('Gets the weather.', { until: '2026-08-28', replacedBy: 'new_tool' })).toBe(
      '[DEPRECATED until 2026-08-28, use new_tool] Gets the weather.',
    );
  });

  it('adds the note between the marker and the description', () => {
    expect(withDeprecation('Gets the weather.', { until: '2026-08-28', note: 'Returns Kelvin only.' })).toBe(
      '[DEPRECATED until 2026-08-28] Returns Kelvin only. Gets the weather.',
    );
  });

  it('works without a description', () => {
    expect(withDeprecation(undefined, { until: '2026-08-28', replacedBy: 'x' })).toBe('[DEPRECATED until 2026-08-28, use x]');
  });

  it('leaves a description alone when the item is not deprecated', () => {
    expect(withDeprecation('Plain.', undefined)).toBe('Plain.');
    expect(withDeprecation(undefined, undefined)).toBeUndefined();
  });
});

describe('DeprecationWarnings', () => {
  it('warns once per hour per item (injected clock)', () => {
    const logger = recordingLogger();
    let now = 0;
    const w = new DeprecationWarnings(logger, () => now);
    const d = { until: '2026-08-28', replacedBy: 'new_tool' };
    expect(w.used('tool', 'old_tool', d)).toBe(true);
    now = 59 * 60 * 1000;
    expect(w.used('tool', 'old_tool', d)).toBe(false);
    expect(w.used('prompt', 'old_tool', d)).toBe(true);
    now = 60 * 60 * 1000;
    expect(w.used('tool', 'old_tool', d)).toBe(true);
    expect(logger.entries.filter((e) => e.level === 'warn')).toHaveLength(3);
    expect(logger.entries[0]?.msg).toContain('2026-08-28');
  });

  it('does nothing for an item that is not deprecated', () => {
    const logger = recordingLogger();
    expect(new DeprecationWarnings(logger).used('tool', 'x', undefined)).toBe(false);
    expect(logger.entries).toEqual([]);
  });
});

describe('overdueDeprecations', () => {
  const items = [
    { kind: 'tool', name: 'past', deprecated: { until: '2026-01-01' } },
    { kind: 'tool', name: 'today', deprecated: { until: '2026-03-15' } },
    { kind: 'prompt', name: 'future', deprecated: { until: '2027-01-01' } },
    { kind: 'resource', name: 'test://fine' },
  ];

  it('lists the items whose until date has passed, not the one due today nor future ones', () => {
    expect(overdueDeprecations(items, new Date('2026-03-15T12:00:00Z'))).toEqual(['tool "past" (until 2026-01-01)']);
  });

  it('the day after, the one due today is overdue too', () => {
    expect(overdueDeprecations(items, new Date('2026-03-16T00:00:00Z'))).toHaveLength(2);
  });
});

describe('assertValidDeprecation', () => {
  it('accepts a YYYY-MM-DD date and no deprecation at all', () => {
    expect(() => assertValidDeprecation('tool', 't', { until: '2026-08-28' })).not.toThrow();
    expect(() => assertValidDeprecation('tool', 't', { until: '2024-02-29' })).not.toThrow();
    expect(() => assertValidDeprecation('tool', 't', undefined)).not.toThrow();
  });

  it.each(['2026-8-28', '28.08.2026', 'tomorrow', '', '2026-13-01', '2026-00-10', '2026-08-28T00:00:00Z'])(
    'rejects %j and names the item',
    (until) => {
      expect(() => assertValidDeprecation('tool', 'old_tool', { until })).toThrow(/tool "old_tool".*YYYY-MM-DD/);
    },
  );

  it('rejects calendar-impossible dates (30 February, 31 April, 29 February of a common year)', () => {
    for (const until of ['2026-02-30', '2026-02-31', '2026-04-31', '2025-02-29']) {
      expect(() => assertValidDeprecation('tool', 'old_tool', { until }), until).toThrow(/old_tool/);
    }
  });
});
