/** Resource listing and reading, independent of the protocol era. */
import { withDeprecation } from './deprecation.js';
import { ResourceNotFoundError } from './errors.js';
import type { Registry } from './registry.js';
import type { RequestContext } from './request-context.js';
import type { IResourceContents, IResourceData, IResourceTemplateInfo, TResourceContent } from './types.js';

export function describeResource(r: IResourceData) {
  const { content: _content, deprecated, requiredScopes: _s, requiredGroups: _g, ...rest } = r;
  if (!deprecated) return rest;
  return { ...rest, description: withDeprecation(rest.description, deprecated) };
}

export function describeTemplate(t: IResourceTemplateInfo) {
  const { read: _read, complete: _complete, requiredScopes: _s, requiredGroups: _g, ...rest } = t;
  return rest;
}

/** Reads a resource; the pipeline's authorize step checked the caller before (core/steps/authorize.ts). */
export async function readResource(registry: Registry, uri: string, ctx: RequestContext): Promise<IResourceContents[]> {
  const direct = registry.resources.get(uri);
  if (direct) {
    const value = typeof direct.content === 'function' ? await direct.content(uri, ctx) : direct.content;
    return toContents(uri, direct.mimeType, value);
  }
  const hit = registry.findTemplate(uri);
  if (hit) {
    const value = await hit.template.def.read(uri, hit.variables, ctx);
    return toContents(uri, hit.template.def.mimeType, value);
  }
  throw new ResourceNotFoundError(uri);
}

function toContents(uri: string, mimeType: string | undefined, value: TResourceContent): IResourceContents[] {
  const mime = mimeType ? { mimeType } : {};
  if (typeof value === 'string') return [{ uri, ...mime, text: value }];
  if (Array.isArray(value)) return value;
  if ('blob' in value) return [{ uri, ...mime, blob: value.blob }];
  return [{ uri, ...mime, text: value.text }];
}
