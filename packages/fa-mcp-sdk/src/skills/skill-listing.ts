/**
 * The skill listing of the server instructions, in decreasing detail: names
 * with descriptions, names alone, a count. The instructions take the most
 * detailed one that fits their budget.
 */
import { SKILL_FILE } from './constants.js';
import type { SkillCatalog } from './skill-catalog.js';

export function skillListing(catalog: SkillCatalog): string[] {
  const { skills } = catalog;
  if (skills.length === 0) return [];
  const heading = `Skills: before a task one covers, read its ${catalog.root}<name>/${SKILL_FILE} and follow it`;
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const n = skills.length;
  return [
    [`${heading}:`, ...skills.map((s) => `- ${s.name}: ${oneLine(s.description)}`)].join('\n'),
    `${heading}. Skills here: ${skills.map((s) => s.name).join(', ')}.`,
    `${n} skill${n === 1 ? '' : 's'} cover${n === 1 ? 's' : ''} tasks of this server: skills/list names ${n === 1 ? 'it' : 'them'}, and ${catalog.root}<name>/${SKILL_FILE} is the one to follow.`,
  ];
}
