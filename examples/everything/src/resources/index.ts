/** Every resource and template of the example (session and minted resources are made by gzip-file-as-resource). */
import { join } from 'node:path';
import type { IResourceData, IResourceTemplateInfo } from 'fa-mcp-sdk';
import { byCategoryTemplate, itemTemplate, summerSpecials } from './collections.js';
import { staticDocuments } from './static-documents.js';
import { dynamicBlobTemplate, dynamicTextTemplate } from './templates.js';

export function everythingResources(root: string): IResourceData[] {
  return [...staticDocuments(join(root, 'docs')), summerSpecials];
}

export const everythingTemplates: IResourceTemplateInfo[] = [dynamicTextTemplate, dynamicBlobTemplate, byCategoryTemplate, itemTemplate];
