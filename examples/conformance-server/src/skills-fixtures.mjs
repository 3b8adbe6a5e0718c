// @ts-check
/**
 * The skills the SEP-2640 scenarios of the conformance suite read
 * (sep-2640-skills-enumeration, -manifest, -directory): the folder next to src/,
 * served under skill://, with directory reads.
 */
import { fileURLToPath } from 'node:url';

/** @type {import('fa-mcp-sdk').ISkillsOptions} */
export const conformanceSkills = { dir: fileURLToPath(new URL('../skills', import.meta.url)) };
