import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveIcons } from '../../src/core/icons.js';
import { caughtSync } from './helpers.js';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>';
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

describe('resolveIcons', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fa-mcp-icons-'));
    writeFileSync(join(dir, 'logo.svg'), SVG);
    writeFileSync(join(dir, 'LOGO.PNG'), PNG_BYTES);
    writeFileSync(join(dir, 'logo.bin'), PNG_BYTES);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an SVG file becomes a data:image/svg+xml;base64 URI, sizes and theme kept', () => {
    const [icon] = resolveIcons([{ file: 'logo.svg', sizes: ['16x16', 'any'], theme: 'dark' }], dir) ?? [];
    expect(icon?.src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(icon?.src.split(',')[1] ?? '', 'base64').toString('utf8')).toBe(SVG);
    expect(icon).toMatchObject({ mimeType: 'image/svg+xml', sizes: ['16x16', 'any'], theme: 'dark' });
  });

  it('binary files keep their bytes; the extension is matched case-insensitively', () => {
    const [icon] = resolveIcons([{ file: join(dir, 'LOGO.PNG') }], '/nowhere') ?? [];
    expect(icon?.mimeType).toBe('image/png');
    expect(Buffer.from(icon?.src.replace('data:image/png;base64,', '') ?? '', 'base64')).toEqual(PNG_BYTES);
    expect(icon && 'sizes' in icon).toBe(false);
  });

  it('an unknown extension without mimeType throws naming the file', () => {
    const err = caughtSync(() => resolveIcons([{ file: 'logo.bin' }], dir));
    expect((err as Error).message).toMatch(/logo\.bin.*mimeType/);
  });

  it('an unknown extension with mimeType is accepted', () => {
    const [icon] = resolveIcons([{ file: 'logo.bin', mimeType: 'image/png' }], dir) ?? [];
    expect(icon?.src.startsWith('data:image/png;base64,')).toBe(true);
  });

  it('a missing file throws naming the path', () => {
    const err = caughtSync(() => resolveIcons([{ file: 'assets/missing.svg' }], dir));
    expect((err as Error).message).toContain(join(dir, 'assets/missing.svg'));
  });

  it('a plain IIcon passes through unchanged, and order is kept', () => {
    const plain = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] };
    const out = resolveIcons([plain, { file: 'logo.svg' }], dir);
    expect(out?.[0]).toBe(plain);
    expect(out?.[1]?.mimeType).toBe('image/svg+xml');
  });

  it('no icons stay undefined', () => {
    expect(resolveIcons(undefined, dir)).toBeUndefined();
    expect(resolveIcons([], dir)).toEqual([]);
  });
});
