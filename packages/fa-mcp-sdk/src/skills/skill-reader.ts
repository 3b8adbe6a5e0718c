/**
 * Reads a folder of skills: `<dir>/<name>/SKILL.md` and the files under
 * `<dir>/<name>/references/`. Checks what the Agent Skills format and SEP-2640
 * ask of each skill, and computes the digest and size of every file it serves.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { JsonObject } from '../core/types.js';
import {
  MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, REFERENCE_NAME_PATTERN, REFERENCES_DIR, SKILL_FILE, SKILL_LIMITS, SKILL_NAME_PATTERN,
} from './constants.js';
import { parseFrontMatter, SkillError } from './front-matter.js';

export interface SkillFile {
  /** Path inside the skill folder, `/`-separated: `SKILL.md`, `references/guide.md`. */
  path: string;
  bytes: Buffer;
  /** `sha256:<64 hex>` of the raw bytes. */
  digest: string;
  size: number;
  mimeType: string;
  /** The content when it is valid UTF-8 (sent as text), otherwise undefined (sent as a base64 blob). */
  text?: string;
}

export interface LoadedSkill {
  name: string;
  description: string;
  frontmatter: JsonObject;
  /** SKILL.md first, then the references in name order. */
  files: SkillFile[];
}

const MIME_BY_EXT: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.pdf': 'application/pdf',
};

const isStringMap = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function toSkillFile(path: string, bytes: Buffer): SkillFile {
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = undefined;
  }
  return {
    path,
    bytes,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
    mimeType: MIME_BY_EXT[extname(path).toLowerCase()] ?? (text === undefined ? 'application/octet-stream' : 'text/plain'),
    ...(text === undefined ? {} : { text }),
  };
}

/** Reads every skill under `dir`, in name order. `warn` hears about files that are not served. */
export function readSkills(dir: string, warn: (message: string) => void = () => undefined): LoadedSkill[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new SkillError(`Cannot read the skills folder ${dir}: ${(err as Error).message}`);
  }
  const skills: LoadedSkill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    if (!entry.isDirectory()) {
      warn(`${join(dir, entry.name)} is not a skill folder (symlinks are not followed); it is not served`);
      continue;
    }
    skills.push(readSkill(join(dir, entry.name), entry.name, warn));
  }
  return skills;
}

function readSkill(folder: string, folderName: string, warn: (message: string) => void): LoadedSkill {
  const where = `skill ${folder}`;
  if (!SKILL_NAME_PATTERN.test(folderName)) {
    throw new SkillError(`${where}: the folder name must be a skill name (1-64 lowercase letters, digits and single inner hyphens)`);
  }
  const skillPath = join(folder, SKILL_FILE);
  let skillStat;
  try {
    skillStat = statSync(skillPath, { throwIfNoEntry: false });
  } catch {
    skillStat = undefined;
  }
  if (!skillStat?.isFile()) throw new SkillError(`${where}: it has no ${SKILL_FILE}`);
  const skillMd = toSkillFile(SKILL_FILE, readFileSync(skillPath));
  if (skillMd.text === undefined) throw new SkillError(`${where}: ${SKILL_FILE} is not valid UTF-8`);
  const frontmatter = parseFrontMatter(skillMd.text, `${where}/${SKILL_FILE}`);
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || name !== folderName) {
    throw new SkillError(`${where}: the front matter name must equal the folder name "${folderName}" (got ${JSON.stringify(name)})`);
  }
  if (typeof description !== 'string' || description.trim() === '' || [...description].length > MAX_DESCRIPTION_LENGTH) {
    throw new SkillError(`${where}: the front matter needs a description of 1 to ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const { compatibility, metadata } = frontmatter;
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility === '' || [...compatibility].length > MAX_COMPATIBILITY_LENGTH)) {
    throw new SkillError(`${where}: the front matter compatibility must be a string of 1 to ${MAX_COMPATIBILITY_LENGTH} characters`);
  }
  if (metadata !== undefined && !isStringMap(metadata)) {
    throw new SkillError(`${where}: the front matter metadata must map strings to strings (quote numbers and booleans)`);
  }

  const files = [skillMd, ...readReferences(folder, where, warn)];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === SKILL_FILE || entry.name === REFERENCES_DIR || entry.name.startsWith('.')) continue;
    warn(`${where}: ${entry.name} is not served (a skill serves ${SKILL_FILE} and the files under ${REFERENCES_DIR}/)`);
  }
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes) {
    throw new SkillError(`${where}: ${files.length} files and ${bytes} bytes exceed the limits of ${SKILL_LIMITS.files} files and ${SKILL_LIMITS.bytes} bytes per skill`);
  }
  return { name, description, frontmatter, files };
}

function readReferences(folder: string, where: string, warn: (message: string) => void): SkillFile[] {
  const refDir = join(folder, REFERENCES_DIR);
  const stat = statSync(refDir, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) throw new SkillError(`${where}: ${REFERENCES_DIR} must be a folder`);
  const out: SkillFile[] = [];
  for (const entry of readdirSync(refDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    if (!entry.isFile()) {
      warn(`${where}: ${REFERENCES_DIR}/${entry.name} is not a regular file (folders and symlinks are not served)`);
      continue;
    }
    if (!REFERENCE_NAME_PATTERN.test(entry.name)) {
      throw new SkillError(`${where}: the reference name "${entry.name}" may hold only letters, digits, ".", "_" and "-"`);
    }
    out.push(toSkillFile(`${REFERENCES_DIR}/${entry.name}`, readFileSync(join(refDir, entry.name))));
  }
  return out;
}
