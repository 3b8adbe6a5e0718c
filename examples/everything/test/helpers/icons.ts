/** What every listed item and the serverInfo carry: a light and a dark inline SVG icon. */
import { expect } from 'vitest';

interface Icon {
  src: string;
  mimeType?: string;
  theme?: string;
}

/** Checks the two themed SVG data: icons of `item` and answers their (light) glyph, to tell kinds apart. */
export function themedIcons(item: { icons?: Icon[] }, what: string): string {
  const icons = item.icons ?? [];
  expect(icons.map((i) => i.theme), what).toEqual(['light', 'dark']);
  for (const icon of icons) {
    expect(icon.mimeType, what).toBe('image/svg+xml');
    expect(icon.src.startsWith('data:image/svg+xml;base64,'), what).toBe(true);
    expect(Buffer.from(icon.src.split(',')[1] as string, 'base64').toString()).toMatch(/^<svg /);
  }
  // The same glyph in both themes, drawn in another colour.
  const glyph = (i: Icon) => Buffer.from(i.src.split(',')[1] as string, 'base64').toString().replace(/stroke="#[0-9a-f]+"/, '');
  expect(glyph(icons[0] as Icon), what).toBe(glyph(icons[1] as Icon));
  return glyph(icons[0] as Icon);
}

/** The URIs the framework lists itself, without icons of the example's (see the README). */
export const FRAMEWORK_RESOURCES = ['project://version', 'use://auth'];
export const FRAMEWORK_TEMPLATES = ['demo://resource/minted/{id}/{name}'];
