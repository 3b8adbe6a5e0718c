/**
 * The documented tool surface: a markdown rendering of what a server answers
 * (the initialize result, the instructions with their length against the
 * budget, prompts, tools with schemas and annotations, resource templates),
 * kept between two markers of a page so the prose around it stays the
 * author's; and the comparison of a page with a fresh rendering.
 */
import type { JsonObject } from '../core/types.js';
import type { ContractSnapshot } from './snapshot-types.js';

export const SURFACE_BEGIN = '<!-- fa-mcp contract docs: begin (generated; edit around it, not inside) -->';
export const SURFACE_END = '<!-- fa-mcp contract docs: end -->';

const json = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function argumentsOf(prompt: JsonObject): string {
  const args = (prompt.arguments as JsonObject[] | undefined) ?? [];
  if (args.length === 0) return 'Takes nothing.';
  return `Takes ${args.map((a) => `\`${str(a.name)}\`${a.required === true ? ' (required)' : ''}`).join(', ')}.`;
}

/** The generated part of the page (markers excluded). */
export function renderSurface(snapshot: ContractSnapshot, instructionsBudget?: number): string {
  const { tools, prompts, resourceTemplates, instructions } = snapshot;
  const initialize = { protocolVersion: snapshot.protocolVersion, capabilities: snapshot.capabilities, serverInfo: snapshot.serverInfo };
  const out: string[] = ['## The initialize result', '', json(initialize), '', '## The instructions', ''];
  if (instructions) {
    out.push(['```text', instructions, '```'].join('\n'), '');
    const length = instructions.length.toLocaleString('en');
    out.push(instructionsBudget ? `${length} characters of the ${instructionsBudget.toLocaleString('en')} a client keeps (\`mcp.instructions.budget\`).` : `${length} characters.`, '');
  } else {
    out.push('The server sends no instructions.', '');
  }
  out.push(`## The prompts (${prompts.length})`, '');
  if (prompts.length === 0) out.push('None.', '');
  for (const p of prompts) out.push(`- \`${str(p.name)}\`${p.title ? ` — ${str(p.title)}` : ''}. ${str(p.description)} ${argumentsOf(p)}`.replace(/\s+$/, ''));
  if (prompts.length > 0) out.push('');
  out.push(`## The tools (${tools.length})`, '');
  for (const t of tools) {
    out.push(`### \`${str(t.name)}\``, '');
    if (t.title) out.push(`**${str(t.title)}**`, '');
    if (t.description) out.push(str(t.description), '');
    const { name: _n, title: _t, description: _d, ...rest } = t;
    out.push(json(rest), '');
  }
  if (tools.length === 0) out.push('None.', '');
  out.push(`## The resource templates (${resourceTemplates.length})`, '');
  if (resourceTemplates.length === 0) out.push('None.', '');
  for (const r of resourceTemplates) out.push(`- \`${str(r.uriTemplate)}\`${r.title ? ` — ${str(r.title)}` : ''}${r.description ? `. ${str(r.description)}` : ''}`);
  return `${out.join('\n').trimEnd()}\n`;
}

/** The page with `generated` between the markers; markers and a title are added when the page has none. */
export function spliceSurface(page: string | undefined, generated: string, title = '# The tool surface'): string {
  const block = `${SURFACE_BEGIN}\n\n${generated}${SURFACE_END}\n`;
  if (page === undefined) return `${title}\n\nWhat the server answers, written by \`fa-mcp contract docs\` from a live session and checked by \`fa-mcp contract docs --check\`.\n\n${block}`;
  const begin = page.indexOf(SURFACE_BEGIN);
  const end = page.indexOf(SURFACE_END);
  if (begin === -1 || end === -1 || end < begin) return `${page.trimEnd()}\n\n${block}`;
  return page.slice(0, begin) + block + page.slice(end + SURFACE_END.length).replace(/^\n/, '');
}

/** The text between the markers, or undefined when the page has none. */
export function extractSurface(page: string): string | undefined {
  const begin = page.indexOf(SURFACE_BEGIN);
  const end = page.indexOf(SURFACE_END);
  if (begin === -1 || end === -1 || end < begin) return undefined;
  return page.slice(begin + SURFACE_BEGIN.length, end).replace(/^\n\n/, '');
}

/** What differs, line by line: lines only the page has and lines only the server answers (at most `max` each). */
export function surfaceDifferences(documented: string, answered: string, max = 20): { onlyInPage: string[]; onlyInServer: string[] } {
  const count = (lines: string[]) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = documented.split('\n');
  const b = answered.split('\n');
  const ca = count(a);
  const cb = count(b);
  const only = (lines: string[], mine: Map<string, number>, theirs: Map<string, number>) => {
    const left = new Map([...mine].map(([l, n]) => [l, n - (theirs.get(l) ?? 0)]));
    return lines.filter((l) => {
      const n = left.get(l) ?? 0;
      if (n <= 0) return false;
      left.set(l, n - 1);
      return true;
    });
  };
  return { onlyInPage: only(a, ca, cb).slice(0, max), onlyInServer: only(b, cb, ca).slice(0, max) };
}

export interface SurfaceCheck {
  /** True when the page holds exactly `generated` between its markers. */
  ok: boolean;
  /** What to tell the user: the page is current, or what differs and how to regenerate it. */
  message: string;
  onlyInPage: string[];
  onlyInServer: string[];
}

/** Compares a page (undefined: no such file) with a fresh rendering; `regenerate` is the command the message names. */
export function checkSurface(file: string, page: string | undefined, generated: string, regenerate = '`fa-mcp contract docs`'): SurfaceCheck {
  const documented = page === undefined ? undefined : extractSurface(page);
  if (documented === undefined) {
    const why = page === undefined ? 'no such file' : 'no markers';
    return { ok: false, message: `${file} has no generated surface (${why}); run ${regenerate} and commit it.`, onlyInPage: [], onlyInServer: [] };
  }
  if (documented === generated) return { ok: true, message: `surface docs OK: ${file} says what the server answers`, onlyInPage: [], onlyInServer: [] };
  const { onlyInPage, onlyInServer } = surfaceDifferences(documented, generated);
  const message = [
    `${file} does not say what the server answers.`,
    ...(onlyInPage.length ? ['The page says, the server does not:', ...onlyInPage.map((l) => `  - ${l}`)] : []),
    ...(onlyInServer.length ? ['The server answers, the page does not say:', ...onlyInServer.map((l) => `  + ${l}`)] : []),
    `If the change is intended, run ${regenerate} and commit the page.`,
  ].join('\n');
  return { ok: false, message, onlyInPage, onlyInServer };
}
