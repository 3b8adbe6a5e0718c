/**
 * The dynamic resources: demo://resource/dynamic/text/{index} and
 * demo://resource/dynamic/blob/{index}, generated on every read. The URIs are built here for
 * the tools and prompts that link to or embed them.
 */
import { ResourceNotFoundError, type IResourceContents, type IResourceTemplateInfo } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

export type DynamicKind = 'text' | 'blob';

export const dynamicUri = (kind: DynamicKind, index: number): string => `demo://resource/dynamic/${kind}/${index}`;

/** The contents of one dynamic resource, made now. */
export function dynamicContents(kind: DynamicKind, index: number): IResourceContents {
  const uri = dynamicUri(kind, index);
  const when = new Date().toISOString();
  if (kind === 'text') return { uri, mimeType: 'text/plain', text: `Resource ${index}: This is a plaintext resource created at ${when}` };
  return { uri, mimeType: 'text/plain', blob: Buffer.from(`Resource ${index}: This is a base64 blob created at ${when}`).toString('base64') };
}

/** A template variable that must be a positive integer; anything else names no resource. */
export function positiveIndex(value: string | undefined, uri: string): number {
  if (!value || !/^[1-9][0-9]{0,8}$/.test(value)) throw new ResourceNotFoundError(uri, `Unknown resource ${uri}: the id must be a positive integer`);
  return Number(value);
}

function dynamicTemplate(kind: DynamicKind): IResourceTemplateInfo {
  return {
    uriTemplate: `demo://resource/dynamic/${kind}/{index}`,
    name: `Dynamic ${kind === 'text' ? 'Text' : 'Blob'} Resource`,
    title: `Dynamic ${kind} resource`,
    description: kind === 'text' ? 'Plaintext generated on every read; index is a positive integer.' : 'A base64 blob generated on every read; index is a positive integer.',
    mimeType: 'text/plain',
    icons: ICONS.template,
    read: (uri, { index }) => [dynamicContents(kind, positiveIndex(index, uri))],
  };
}

export const dynamicTextTemplate = dynamicTemplate('text');
export const dynamicBlobTemplate = dynamicTemplate('blob');
