/**
 * Turns `McpServerData.skills` into what the core serves: the SKILL.md
 * resources, the references template, the Skills extension with its methods,
 * and the listing for the instructions.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ServerExtension } from '../core/extensions.js';
import type { Paginator } from '../core/pagination.js';
import type { IResourceData, IResourceTemplateInfo } from '../core/types.js';
import { SkillError } from './front-matter.js';
import { SkillCatalog } from './skill-catalog.js';
import { skillListing } from './skill-listing.js';
import { readSkills } from './skill-reader.js';
import { skillReferenceTemplate, skillResources } from './skill-resources.js';
import { skillsExtension, type SkillsCacheHint } from './skills-methods.js';

export interface ISkillsOptions {
  /** The folder holding one folder per skill (`<dir>/<name>/SKILL.md`), relative to the working directory. */
  dir: string;
  /** Where the skills are addressed: `skill://` (the default, as SEP-2640 recommends) or `scheme://path` (`typo3://skill`). */
  baseUri?: string;
  /** Name the skills in the server instructions, under their budget (default true). */
  listInInstructions?: boolean;
  /** Cache hint of skills/list, skills/get and directory reads on 2026-07-28 (default `{ ttlMs: 0, cacheScope: 'private' }`). */
  cacheHint?: Partial<SkillsCacheHint>;
  /**
   * Serve `resources/directory/read` and declare `directoryRead: true` (default true). false
   * declares the extension as `{}` (SEP-2640: no optional features) and serves no directory reads.
   */
  directoryRead?: boolean;
}

export interface PreparedSkills {
  catalog: SkillCatalog;
  resources: IResourceData[];
  templates: IResourceTemplateInfo[];
  extension: ServerExtension;
  /** Listing variants for the instructions, most detailed first; empty when not listed. */
  listing: string[];
}

export interface PrepareSkillsContext {
  cwd: string;
  paginator: Paginator;
  warn: (message: string) => void;
}

export function prepareSkills(input: string | ISkillsOptions, ctx: PrepareSkillsContext): PreparedSkills {
  const options = typeof input === 'string' ? { dir: input } : input;
  const dir = isAbsolute(options.dir) ? options.dir : resolve(ctx.cwd, options.dir);
  const catalog = new SkillCatalog(readSkills(dir, ctx.warn), options.baseUri);
  const cache: SkillsCacheHint = { ttlMs: options.cacheHint?.ttlMs ?? 0, cacheScope: options.cacheHint?.cacheScope ?? 'private' };
  if (!Number.isSafeInteger(cache.ttlMs) || cache.ttlMs < 0 || !['public', 'private'].includes(cache.cacheScope)) {
    throw new SkillError('skills.cacheHint: ttlMs must be a non-negative integer and cacheScope "public" or "private"');
  }
  return {
    catalog,
    resources: skillResources(catalog),
    templates: catalog.skills.length > 0 ? [skillReferenceTemplate(catalog)] : [],
    extension: skillsExtension(catalog, ctx.paginator, cache, options.directoryRead ?? true),
    listing: options.listInInstructions === false ? [] : skillListing(catalog),
  };
}
