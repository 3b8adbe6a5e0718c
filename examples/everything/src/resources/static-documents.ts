/**
 * The static documents: each file of the example's docs/ folder at
 * demo://resource/static/document/<filename>. They change only with a release, so a 2026-07-28
 * read carries a one-hour public cache hint (the dynamic reads keep the per-method default).
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { IResourceData } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

export const STATIC_DOCUMENT_PREFIX = 'demo://resource/static/document/';
export const ONE_HOUR_PUBLIC = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

const MIME: Record<string, string> = { '.md': 'text/markdown', '.txt': 'text/plain', '.json': 'application/json' };

/** One resource per file of `docsDir` (read at start; each read reads the file). */
export function staticDocuments(docsDir: string): IResourceData[] {
  return readdirSync(docsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort()
    .map((file) => ({
      uri: `${STATIC_DOCUMENT_PREFIX}${file}`,
      name: file,
      title: `Document ${file}`,
      description: `Static document ${file} of the everything example.`,
      mimeType: MIME[extname(file)] ?? 'text/plain',
      icons: ICONS.resource,
      cacheHint: ONE_HOUR_PUBLIC,
      content: () => readFile(join(docsDir, file), 'utf8'),
    }));
}
