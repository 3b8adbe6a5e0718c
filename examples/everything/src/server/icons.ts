/**
 * The icons of the server and of every tool, prompt, resource and template (SEP-973): two
 * scalable SVGs per kind, one drawn for a light background (`theme: "light"`) and one for a
 * dark one, as inline `data:` URIs, so a client fetches nothing. Each kind has its own glyph.
 */
import type { IIcon } from 'fa-mcp-sdk';

export type IconKind = 'server' | 'tool' | 'prompt' | 'resource' | 'template';

const DOCUMENT = '<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z"/><path d="M14 2v6h6"/>';

const GLYPHS: Record<IconKind, string> = {
  // a server rack
  server:
    '<rect x="2" y="3" width="20" height="7" rx="2"/><rect x="2" y="14" width="20" height="7" rx="2"/><path d="M6 6.5h.01M6 17.5h.01M10 6.5h8M10 17.5h8"/>',
  // a wrench
  tool: '<path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94z"/>',
  // a speech bubble
  prompt: '<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/>',
  // a document
  resource: `${DOCUMENT}<path d="M8 13h8M8 17h5"/>`,
  // a document with braces
  template: `${DOCUMENT}<path d="M10 12a1 1 0 0 0-1 1v1a1 1 0 0 1-1 1 1 1 0 0 1 1 1v1a1 1 0 0 0 1 1M14 18a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1 1 1 0 0 1-1-1v-1a1 1 0 0 0-1-1"/>`,
};

/** Stroke colours: dark lines on a light background, light lines on a dark one. */
const STROKE = { light: '#1f2937', dark: '#f3f4f6' } as const;

function icon(kind: IconKind, theme: keyof typeof STROKE): IIcon {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" ' +
    `stroke="${STROKE[theme]}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${GLYPHS[kind]}</svg>`;
  return { src: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, mimeType: 'image/svg+xml', sizes: ['any'], theme };
}

/** The light and the dark icon of each kind, built once. */
export const ICONS: Readonly<Record<IconKind, IIcon[]>> = Object.freeze({
  server: [icon('server', 'light'), icon('server', 'dark')],
  tool: [icon('tool', 'light'), icon('tool', 'dark')],
  prompt: [icon('prompt', 'light'), icon('prompt', 'dark')],
  resource: [icon('resource', 'light'), icon('resource', 'dark')],
  template: [icon('template', 'light'), icon('template', 'dark')],
});
