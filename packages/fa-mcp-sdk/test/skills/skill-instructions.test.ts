/** The skill listing in the server instructions, under their budget. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleInstructions, InstructionsBudgetError } from '../../src/index.js';
import { SkillCatalog } from '../../src/skills/skill-catalog.js';
import { skillListing } from '../../src/skills/skill-listing.js';
import { readSkills } from '../../src/skills/skill-reader.js';
import { startTestServer } from '../../src/testing/index.js';

const listing = skillListing(new SkillCatalog(readSkills(join(__dirname, 'fixtures', 'skills'))));
const parts = { opening: 'Start with noop.', index: [{ tools: ['secret'], text: 'secrets: secret' }], close: 'Answer in English.' };

describe('skill listing in the instructions', () => {
  it('goes between the note and the close, with descriptions when they fit', () => {
    const out = assembleInstructions(parts, 2048, [], listing);
    expect(out.listingLevel).toBe(0);
    expect(out.text).toBe(
      [
        'Start with noop.',
        'What to call for what:\n- secrets: secret',
        'Skills: before a task one covers, read its skill://<name>/SKILL.md and follow it:\n- code-review: Review a change for correctness, tests and naming before it is merged.\n- release-notes: Write the release notes of a version from the merged changes, in the project\'s changelog format.',
        'Answer in English.',
      ].join('\n\n'),
    );
  });

  it('shrinks to names, then a count, then goes, before the exclusion note does', () => {
    const full = assembleInstructions(parts, 4096, ['secret'], listing);
    const names = assembleInstructions(parts, full.length - 1, ['secret'], listing);
    expect(names.listingLevel).toBe(1);
    expect(names.text).toContain('Skills here: code-review, release-notes.');
    expect(names.text).toContain('Not available on this server: secret.');
    const count = assembleInstructions(parts, names.length - 1, ['secret'], listing);
    expect(count.listingLevel).toBe(2);
    expect(count.text).toContain('2 skills cover tasks of this server');
    const none = assembleInstructions(parts, count.length - 1, ['secret'], listing);
    expect(none.listingLevel).toBe(-1);
    expect(none.text).toBe('Start with noop.\n\nNot available on this server: secret.\n\nAnswer in English.');
    expect(() => assembleInstructions(parts, 10, ['secret'], listing)).toThrow(InstructionsBudgetError);
  });

  it('follows a plain-string text, and stands alone when there is none', () => {
    expect(assembleInstructions('Be brief.', 2048, ['x'], listing).text).toMatch(/^Be brief\.\n\nSkills: /);
    expect(assembleInstructions('', 2048, [], listing).text).toMatch(/^Skills: /);
  });

  it('is what a server with skills and no instructions of its own answers, unless turned off', async () => {
    const dir = join(__dirname, 'fixtures', 'skills');
    const listed = await startTestServer({ skills: dir });
    const silent = await startTestServer({ skills: { dir, listInInstructions: false } });
    try {
      expect((await listed.connect()).getInstructions()).toMatch(/^Skills: before a task/);
      expect((await silent.connect()).getInstructions()).toBeUndefined();
    } finally {
      await Promise.all([listed.stop(), silent.stop()]);
    }
  });
});
