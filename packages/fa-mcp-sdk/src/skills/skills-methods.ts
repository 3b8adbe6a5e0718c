/**
 * The methods of the Skills extension (SEP-2640): skills/list (paged, entries
 * never split), skills/get (one entry by its SKILL.md URI, -32602 for any other)
 * and resources/directory/read (the children of a skill folder; only with
 * `directoryRead`, the default). On
 * 2026-07-28 each result carries the cache fields `ttlMs` and `cacheScope`.
 */
import type { ExtensionMethod, ServerExtension } from '../core/extensions.js';
import { ValidationError } from '../core/errors.js';
import type { Paginator } from '../core/pagination.js';
import type { RequestContext } from '../core/request-context.js';
import type { JsonObject } from '../core/types.js';
import { RESOURCES_DIRECTORY_READ_METHOD, SKILLS_EXTENSION_ID, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from './constants.js';
import type { SkillCatalog } from './skill-catalog.js';

export interface SkillsCacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

const CURSOR = { type: 'string' };
const META = { type: 'object' };

export function skillsExtension(catalog: SkillCatalog, paginator: Paginator, cache: SkillsCacheHint, directoryRead = true): ServerExtension {
  const cacheFields = (ctx: RequestContext): JsonObject => (ctx.era === '2026' ? { ttlMs: cache.ttlMs, cacheScope: cache.cacheScope } : {});

  const list: ExtensionMethod = {
    params: { type: 'object', properties: { cursor: CURSOR, _meta: META } },
    handle: (params, ctx) => {
      const page = paginator.paginate('skills', catalog.entries, (e) => e.uri, params.cursor as string | undefined);
      return { skills: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cacheFields(ctx) } as unknown as JsonObject;
    },
  };

  const get: ExtensionMethod = {
    params: { type: 'object', properties: { uri: { type: 'string' }, _meta: META }, required: ['uri'] },
    handle: (params, ctx) => {
      const uri = params.uri as string;
      const skill = catalog.entry(uri);
      if (!skill) throw new ValidationError(`No skill is served at ${uri}`, { uri });
      return { skill, ...cacheFields(ctx) } as unknown as JsonObject;
    },
  };

  const readDirectory: ExtensionMethod = {
    params: { type: 'object', properties: { uri: { type: 'string' }, cursor: CURSOR, _meta: META }, required: ['uri'] },
    handle: (params, ctx) => {
      const uri = params.uri as string;
      const children = catalog.directory(uri);
      if (!children) throw new ValidationError(`${uri} is not a directory resource`, { uri });
      const page = paginator.paginate(`directory:${uri}`, children, (c) => c.uri, params.cursor as string | undefined);
      return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cacheFields(ctx) } as unknown as JsonObject;
    },
  };

  return {
    id: SKILLS_EXTENSION_ID,
    // SEP-2640: `directoryRead` defaults to false, and `{}` declares the extension with no optional features.
    settings: directoryRead ? { directoryRead: true } : {},
    methods: { [SKILLS_LIST_METHOD]: list, [SKILLS_GET_METHOD]: get, ...(directoryRead ? { [RESOURCES_DIRECTORY_READ_METHOD]: readDirectory } : {}) },
  };
}
