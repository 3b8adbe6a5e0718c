/** Writes the matrix into page 07 between its markers. */
import { readFileSync, writeFileSync } from 'node:fs';
import { FEATURES, type Cell, type MatrixRow } from './matrix-types.js';

export const START = '<!-- client-matrix:start -->';
export const END = '<!-- client-matrix:end -->';

function cellText(cell: Cell | undefined): string {
  if (!cell) return '–';
  if (cell.state === 'works') return 'works';
  return `${cell.state}: ${cell.why.replace(/\|/g, '\\|')}`;
}

export function renderMatrix(rows: MatrixRow[]): string {
  const head = ['Client', 'Version', 'Transport', 'Revision', ...FEATURES];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${[r.client, r.version, r.transport, r.revision, ...FEATURES.map((f) => cellText(r.cells[f]))].join(' | ')} |`);
  return lines.join('\n');
}

/** Replaces the text between the markers; returns true when the page changed. */
export function writeMatrix(page: string, rows: MatrixRow[]): boolean {
  const text = readFileSync(page, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${page} has no ${START} … ${END} markers`);
  const next = `${text.slice(0, from + START.length)}\n${renderMatrix(rows)}\n${text.slice(to)}`;
  if (next === text) return false;
  writeFileSync(page, next);
  return true;
}
