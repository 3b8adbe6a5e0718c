/**
 * Icons given as files become `data:` URIs, so a client fetches nothing (a stdio
 * server has no origin to fetch from).
 */
import { readFileSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import type { IIcon } from './types.js';

export interface IIconFile {
  /** Path to an SVG, PNG, JPEG, WebP or ICO file, relative to the project root. */
  file: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
  mimeType?: string;
}

const MIME_BY_EXT: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

export function resolveIcons(icons: Array<IIcon | IIconFile> | undefined, baseDir: string): IIcon[] | undefined {
  if (!icons) return undefined;
  return icons.map((icon) => {
    if (!('file' in icon)) return icon;
    const path = isAbsolute(icon.file) ? icon.file : resolve(baseDir, icon.file);
    const mimeType = icon.mimeType ?? MIME_BY_EXT[extname(path).toLowerCase()];
    if (!mimeType) throw new Error(`Icon ${icon.file}: unknown image type; give mimeType`);
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch (err) {
      throw new Error(`Icon ${icon.file}: cannot read ${path}: ${(err as Error).message}`);
    }
    const out: IIcon = { src: `data:${mimeType};base64,${data.toString('base64')}`, mimeType };
    if (icon.sizes) out.sizes = icon.sizes;
    if (icon.theme) out.theme = icon.theme;
    return out;
  });
}
