/**
 * The skills a server serves, addressed by URI: `<root><name>/SKILL.md`, the
 * references under `<root><name>/references/`, and the folders between them as
 * directory resources. `<root>` is `skill://` by default (SEP-2640), or any
 * `scheme://path/` a consumer picks (`typo3://skill/`).
 */
import type { JsonObject } from '../core/types.js';
import { DEFAULT_SKILLS_BASE_URI, DIRECTORY_MIME_TYPE, REFERENCES_DIR, SKILL_FILE } from './constants.js';
import { SkillError } from './front-matter.js';
import type { LoadedSkill, SkillFile } from './skill-reader.js';

/** One skill as skills/list and skills/get carry it. */
export interface SkillEntry {
  uri: string;
  frontmatter: JsonObject;
  resources: Array<{ uri: string; digest: string; size: number }>;
}

/** A child of a directory resource (resources/directory/read). */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType: string;
  size?: number;
}

const BASE_URI = /^[a-z][a-z0-9+.-]*:\/\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*\/?)?$/i;

/** `skill://` stays; `typo3://skill` and `typo3://skill/` become `typo3://skill/`. */
export function skillsRoot(baseUri: string = DEFAULT_SKILLS_BASE_URI): string {
  if (!BASE_URI.test(baseUri)) throw new SkillError(`skills.baseUri must look like "skill://" or "scheme://path" (got ${JSON.stringify(baseUri)})`);
  return baseUri.endsWith('://') || baseUri.endsWith('/') ? baseUri : `${baseUri}/`;
}

export class SkillCatalog {
  readonly root: string;
  readonly skills: readonly LoadedSkill[];
  readonly entries: readonly SkillEntry[];
  private readonly byName = new Map<string, LoadedSkill>();
  private readonly entryByUri = new Map<string, SkillEntry>();

  constructor(skills: readonly LoadedSkill[], baseUri?: string) {
    this.root = skillsRoot(baseUri);
    this.skills = skills;
    for (const skill of skills) {
      if (this.byName.has(skill.name)) throw new SkillError(`Skill "${skill.name}" is served twice`);
      this.byName.set(skill.name, skill);
    }
    this.entries = skills.map((skill) => {
      const entry: SkillEntry = {
        uri: this.skillUri(skill.name),
        frontmatter: skill.frontmatter,
        resources: skill.files.map((f) => ({ uri: this.fileUri(skill.name, f.path), digest: f.digest, size: f.size })),
      };
      this.entryByUri.set(entry.uri, entry);
      return entry;
    });
  }

  skillUri(name: string): string {
    return `${this.root}${name}/${SKILL_FILE}`;
  }

  dirUri(name: string): string {
    return `${this.root}${name}`;
  }

  fileUri(name: string, path: string): string {
    return `${this.root}${name}/${path}`;
  }

  /** The template of the references: `<root>{skill}/references/{reference}`. */
  get referenceTemplate(): string {
    return `${this.root}{skill}/${REFERENCES_DIR}/{reference}`;
  }

  entry(uri: string): SkillEntry | undefined {
    return this.entryByUri.get(uri);
  }

  skill(name: string): LoadedSkill | undefined {
    return this.byName.get(name);
  }

  file(name: string, path: string): SkillFile | undefined {
    return this.byName.get(name)?.files.find((f) => f.path === path);
  }

  /** Names of the references of one skill, or of every skill when `name` is undefined. */
  referenceNames(name?: string): string[] {
    const skills = name === undefined ? this.skills : [this.byName.get(name)].filter((s): s is LoadedSkill => !!s);
    const names = skills.flatMap((s) => s.files.filter((f) => f.path !== SKILL_FILE).map((f) => f.path.slice(REFERENCES_DIR.length + 1)));
    return [...new Set(names)].sort();
  }

  /** The children of a directory resource, or undefined when `uri` names no directory this catalog serves. */
  directory(uri: string): DirectoryChild[] | undefined {
    const dir = uri.endsWith('/') && !uri.endsWith('://') ? uri.slice(0, -1) : uri;
    if (!this.root.endsWith('://') && `${dir}/` === this.root) {
      return this.skills.map((s) => ({ uri: this.dirUri(s.name), name: s.name, mimeType: DIRECTORY_MIME_TYPE }));
    }
    if (!dir.startsWith(this.root)) return undefined;
    const [name, sub, ...rest] = dir.slice(this.root.length).split('/');
    const skill = name ? this.byName.get(name) : undefined;
    if (!skill || rest.length > 0) return undefined;
    if (sub === undefined) {
      const md = skill.files[0] as SkillFile;
      const children: DirectoryChild[] = [{ uri: this.fileUri(skill.name, SKILL_FILE), name: SKILL_FILE, mimeType: md.mimeType, size: md.size }];
      if (skill.files.length > 1) children.push({ uri: this.fileUri(skill.name, REFERENCES_DIR), name: REFERENCES_DIR, mimeType: DIRECTORY_MIME_TYPE });
      return children;
    }
    if (sub !== REFERENCES_DIR || skill.files.length < 2) return undefined;
    return skill.files.slice(1).map((f) => ({
      uri: this.fileUri(skill.name, f.path),
      name: f.path.slice(REFERENCES_DIR.length + 1),
      mimeType: f.mimeType,
      size: f.size,
    }));
  }
}
