/** Public API of the Skills extension support (re-exported by the package index). */
export { SKILLS_EXTENSION_ID } from './constants.js';
export { SkillError } from './front-matter.js';
export type { ISkillsOptions } from './prepare-skills.js';
