/** Reading a skills folder: what is served, what is checked, and what stops the start. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillCatalog, skillsRoot } from '../../src/skills/skill-catalog.js';
import { readSkills } from '../../src/skills/skill-reader.js';
import { SkillError } from '../../src/index.js';

const FIXTURES = join(__dirname, 'fixtures', 'skills');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A skills folder from `{ 'name/SKILL.md': text, … }`. */
function folder(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'fa-skills-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
const md = (front: string, body = '# Body\n') => `---\n${front}\n---\n${body}`;

describe('readSkills', () => {
  it('reads SKILL.md and references with digests and sizes of the raw bytes', () => {
    const [review, notes] = readSkills(FIXTURES);
    expect(review!.name).toBe('code-review');
    expect(notes!.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/checklist.md', 'references/template.md']);
    const raw = readFileSync(join(FIXTURES, 'release-notes', 'SKILL.md'));
    expect(notes!.files[0]).toMatchObject({ size: raw.length, digest: `sha256:${createHash('sha256').update(raw).digest('hex')}`, mimeType: 'text/markdown', text: raw.toString('utf8') });
  });

  it('keeps CRLF, a BOM and binary references byte for byte', () => {
    const skill = Buffer.from('\ufeff---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\nBody\r\n', 'utf8');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
    const [s] = readSkills(folder({ 'crlf/SKILL.md': skill, 'crlf/references/pixel.png': png }));
    expect(s!.files[0]!.size).toBe(skill.length);
    expect(Buffer.from(s!.files[0]!.text!, 'utf8').equals(skill)).toBe(true);
    expect(s!.files[1]).toMatchObject({ mimeType: 'image/png', size: 6 });
    expect(s!.files[1]!.text).toBeUndefined();
  });

  it('warns about files it does not serve, and skips hidden files and symlinks', () => {
    const root = folder({ 'a/SKILL.md': md('name: a\ndescription: A.'), 'a/scripts/run.sh': 'echo', 'a/references/.keep': '', 'notes.txt': 'x' });
    symlinkSync(join(root, 'a'), join(root, 'b'));
    const warnings: string[] = [];
    const skills = readSkills(root, (m) => warnings.push(m));
    expect(skills.map((s) => s.name)).toEqual(['a']);
    expect(skills[0]!.files.map((f) => f.path)).toEqual(['SKILL.md']);
    expect(warnings.join('\n')).toMatch(/scripts is not served/);
    expect(warnings.join('\n')).toMatch(/notes\.txt is not a skill folder/);
    expect(warnings.join('\n')).toMatch(/b is not a skill folder \(symlinks are not followed\)/);
  });

  it.each([
    ['a missing folder', () => join(tmpdir(), 'fa-no-such-skills-folder'), /Cannot read the skills folder/],
    ['no SKILL.md', () => folder({ 'a/README.md': 'x' }), /has no SKILL.md/],
    ['no front matter', () => folder({ 'a/SKILL.md': '# A\n' }), /must begin with a YAML front matter/],
    ['front matter that is not a mapping', () => folder({ 'a/SKILL.md': md('- a') }), /must be a YAML mapping/],
    ['invalid YAML', () => folder({ 'a/SKILL.md': md('name: [a') }), /not valid YAML/],
    ['a name other than the folder', () => folder({ 'a/SKILL.md': md('name: b\ndescription: B.') }), /must equal the folder name "a"/],
    ['a folder name against the naming rules', () => folder({ 'Bad--Name/SKILL.md': md('name: Bad--Name\ndescription: B.') }), /folder name must be a skill name/],
    ['no description', () => folder({ 'a/SKILL.md': md('name: a') }), /needs a description/],
    ['a description over 1024 characters', () => folder({ 'a/SKILL.md': md(`name: a\ndescription: ${'x'.repeat(1025)}`) }), /needs a description/],
    ['metadata that is not strings', () => folder({ 'a/SKILL.md': md('name: a\ndescription: A.\nmetadata:\n  version: 2') }), /metadata must map strings to strings/],
    ['an empty compatibility', () => folder({ 'a/SKILL.md': md('name: a\ndescription: A.\ncompatibility: ""') }), /compatibility must be a string/],
    ['a reference name that needs escaping', () => folder({ 'a/SKILL.md': md('name: a\ndescription: A.'), 'a/references/my notes.md': 'x' }), /reference name "my notes.md"/],
    ['references as a file', () => folder({ 'a/SKILL.md': md('name: a\ndescription: A.'), 'a/references': 'x' }), /references must be a folder/],
  ])('stops at %s', (_label, make, message) => {
    const root = make();
    expect(() => readSkills(root)).toThrow(SkillError);
    expect(() => readSkills(root)).toThrow(message);
  });

  it('stops at a skill over 512 files', () => {
    const files: Record<string, string> = { 'big/SKILL.md': md('name: big\ndescription: Big.') };
    for (let i = 0; i < 512; i++) files[`big/references/r${i}.md`] = 'x';
    expect(() => readSkills(folder(files))).toThrow(/513 files .* exceed the limits of 512 files/);
  });
});

describe('SkillCatalog addresses', () => {
  it('uses skill:// by default and any scheme://path a consumer picks', () => {
    expect(skillsRoot()).toBe('skill://');
    expect(skillsRoot('typo3://skill')).toBe('typo3://skill/');
    const catalog = new SkillCatalog(readSkills(FIXTURES), 'typo3://skill');
    expect(catalog.entries.map((e) => e.uri)).toEqual(['typo3://skill/code-review/SKILL.md', 'typo3://skill/release-notes/SKILL.md']);
    expect(catalog.referenceTemplate).toBe('typo3://skill/{skill}/references/{reference}');
    expect(catalog.directory('typo3://skill')?.map((c) => c.uri)).toEqual(['typo3://skill/code-review', 'typo3://skill/release-notes']);
    expect(catalog.directory('typo3://skill/code-review/')?.map((c) => c.name)).toEqual(['SKILL.md', 'references']);
    expect(catalog.directory('typo3://skill/code-review/SKILL.md')).toBeUndefined();
    expect(catalog.directory('typo3://skill/code-review/references/guide.md')).toBeUndefined();
    expect(catalog.directory('other://skill/code-review')).toBeUndefined();
  });

  it('refuses a base URI that is not scheme://path', () => {
    expect(() => skillsRoot('skills')).toThrow(SkillError);
    expect(() => skillsRoot('typo3://skill/{x}')).toThrow(/baseUri/);
  });
});
