import { describe, expect, it } from 'vitest';
import { assembleInstructions, InstructionsBudgetError, type IInstructionsParts } from '../../src/core/instructions.js';
import { caughtSync } from './helpers.js';

const parts: IInstructionsParts = {
  notice: 'NOTICE: skills were refreshed.',
  opening: 'OPENING: start every task with scope_describe.',
  index: [
    { tools: ['search_docs'], text: 'a question about the docs: search_docs' },
    { tools: ['rule_lookup', 'search_docs'], text: 'a rule by id: rule_lookup, then search_docs' },
    { tools: ['commit_guide'], text: 'a commit message: commit_guide' },
  ],
  note: 'NOTE: answers are in English.',
  close: 'CLOSE: feedback_record writes feedback.',
};

describe('assembleInstructions: a plain string', () => {
  it('under the budget is kept as is', () => {
    expect(assembleInstructions('Use search_docs.', 2_048)).toEqual({ text: 'Use search_docs.', length: 16, budget: 2_048, droppedEntries: 0 });
  });

  it('exactly at the budget is fine', () => {
    expect(assembleInstructions('x'.repeat(2_048), 2_048).length).toBe(2_048);
  });

  it('over the budget throws InstructionsBudgetError with the length', () => {
    const err = caughtSync(() => assembleInstructions('x'.repeat(2_049), 2_048));
    expect(err).toBeInstanceOf(InstructionsBudgetError);
    expect((err as InstructionsBudgetError).length).toBe(2_049);
    expect((err as InstructionsBudgetError).budget).toBe(2_048);
    expect((err as Error).message).toContain('2049');
    expect((err as Error).message).toContain('2048');
  });
});

describe('assembleInstructions: parts', () => {
  it('assembles notice, opening, index, note, close in that order', () => {
    const { text, droppedEntries } = assembleInstructions(parts, 2_048);
    expect(text).toBe(
      [
        'NOTICE: skills were refreshed.',
        'OPENING: start every task with scope_describe.',
        [
          'What to call for what:',
          '- a question about the docs: search_docs',
          '- a rule by id: rule_lookup, then search_docs',
          '- a commit message: commit_guide',
        ].join('\n'),
        'NOTE: answers are in English.',
        'CLOSE: feedback_record writes feedback.',
      ].join('\n\n'),
    );
    expect(droppedEntries).toBe(0);
  });

  it('puts the exclusion sentence after the opening and before the index', () => {
    const { text } = assembleInstructions(parts, 2_048, ['commit_guide']);
    const at = (s: string) => text.indexOf(s);
    expect(at('NOTICE')).toBeLessThan(at('OPENING'));
    expect(at('OPENING')).toBeLessThan(at('Not available on this server: commit_guide.'));
    expect(at('Not available on this server')).toBeLessThan(at('What to call for what:'));
    expect(at('What to call for what:')).toBeLessThan(at('NOTE'));
    expect(at('NOTE')).toBeLessThan(at('CLOSE'));
  });

  it('skips absent and blank parts and uses a custom index title', () => {
    const { text } = assembleInstructions({ opening: 'Open.', note: '   ', indexTitle: 'Routes:', index: [{ tools: ['a'], text: 'A: a' }] }, 2_048);
    expect(text).toBe('Open.\n\nRoutes:\n- A: a');
  });

  it('excluded tools drop every index entry that routes to them, and are named', () => {
    const out = assembleInstructions(parts, 2_048, ['search_docs']);
    expect(out.text).not.toContain('a question about the docs');
    expect(out.text).not.toContain('a rule by id');
    expect(out.text).toContain('- a commit message: commit_guide');
    expect(out.text).toContain('Not available on this server: search_docs.');
    expect(out.droppedEntries).toBe(2);
  });

  it('names are sorted; the index title goes when no entry is left', () => {
    const out = assembleInstructions(parts, 2_048, ['search_docs', 'commit_guide']);
    expect(out.text).toContain('Not available on this server: commit_guide, search_docs.');
    expect(out.text).not.toContain('What to call for what:');
    expect(out.droppedEntries).toBe(3);
  });

  it('when the names do not fit the budget, the count stands in', () => {
    const many = Array.from({ length: 40 }, (_, i) => `excluded_tool_number_${i}`);
    const full = assembleInstructions(parts, 2_048).length;
    const out = assembleInstructions(parts, full + 100, many);
    expect(out.text).toContain('40 tools are not available on this server.');
    expect(out.text).not.toContain('excluded_tool_number_0');
    expect(out.length).toBeLessThanOrEqual(full + 100);
  });

  it('the count of one tool is singular', () => {
    const long = `tool_${'x'.repeat(55)}`;
    const base = assembleInstructions(parts, 2_048).length;
    const out = assembleInstructions(parts, base + 45, [long]);
    expect(out.text).toContain('1 tool is not available on this server.');
  });

  it('parts over the budget throw InstructionsBudgetError with the length', () => {
    const err = caughtSync(() => assembleInstructions({ opening: 'y'.repeat(3_000) }, 2_048));
    expect(err).toBeInstanceOf(InstructionsBudgetError);
    expect((err as InstructionsBudgetError).length).toBe(3_000);
  });

  it('instructions that fit do not fail the start when a tool outside the index is excluded', () => {
    const exact = assembleInstructions(parts, 2_048).length;
    // the instructions fit their budget exactly; excluding a tool the index does not mention must not break the start
    const out = assembleInstructions(parts, exact, ['unindexed_tool']);
    expect(out.length).toBeLessThanOrEqual(exact);
  });
});

describe('assembleInstructions: never over the budget (random exclusion sets)', () => {
  /** A small deterministic PRNG (mulberry32), so a failure is reproducible from its seed. */
  function rng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('every returned text fits, carries no entry of an excluded tool, and says what is excluded', () => {
    const toolNames = Array.from({ length: 30 }, (_, i) => `tool_${String(i).padStart(2, '0')}_${'n'.repeat(i % 7)}`);
    let returned = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const rand = rng(seed);
      const index = Array.from({ length: 1 + Math.floor(rand() * 25) }, (_, i) => {
        const routed = toolNames.filter(() => rand() < 0.08);
        const tools = routed.length > 0 ? routed : [toolNames[i % toolNames.length] as string];
        return { tools, text: `entry ${i} ${'w'.repeat(Math.floor(rand() * 80))}: ${tools.join(', ')}` };
      });
      const source: IInstructionsParts = {
        ...(rand() < 0.5 ? { notice: 'n'.repeat(Math.floor(rand() * 200)) } : {}),
        opening: 'o'.repeat(1 + Math.floor(rand() * 400)),
        index,
        ...(rand() < 0.7 ? { note: 'm'.repeat(Math.floor(rand() * 300)) } : {}),
        ...(rand() < 0.7 ? { close: 'c'.repeat(Math.floor(rand() * 200)) } : {}),
      };
      const excluded = toolNames.filter(() => rand() < rand() * 0.6);
      const budget = 300 + Math.floor(rand() * 2_500);
      let out;
      try {
        out = assembleInstructions(source, budget, excluded);
      } catch (err) {
        expect(err, `seed ${seed}`).toBeInstanceOf(InstructionsBudgetError);
        expect((err as InstructionsBudgetError).length, `seed ${seed}`).toBeGreaterThan(budget);
        continue;
      }
      returned++;
      expect(out.length, `seed ${seed}`).toBeLessThanOrEqual(budget);
      expect(out.text.length, `seed ${seed}`).toBe(out.length);
      for (const entry of index) {
        const routesToExcluded = entry.tools.some((t) => excluded.includes(t));
        expect(out.text.includes(`- ${entry.text}`), `seed ${seed}: ${entry.text}`).toBe(!routesToExcluded);
      }
      if (excluded.length > 0) {
        const named = excluded.every((t) => out.text.includes(t));
        const countNote = `${excluded.length} tool${excluded.length === 1 ? ' is' : 's are'} not available on this server.`;
        const counted = out.text.includes(countNote);
        // The note is left out only when even the count form would not fit the budget.
        const noteCouldFit = out.length + countNote.length + 2 <= budget;
        expect(named || counted || !noteCouldFit, `seed ${seed}`).toBe(true);
      }
    }
    // the loop must have exercised the success path, not only the error path
    expect(returned).toBeGreaterThan(100);
  });
});
