/** Writes the matrix into page 07 between its markers. */
import { readFileSync, writeFileSync } from 'node:fs';
import { FEATURES, type Cell, type MatrixRow } from './matrix-types.js';

export const START = '<!-- client-matrix:start -->';
export const END = '<!-- client-matrix:end -->';

function cellText(cell: Cell | undefined): string {
  if (!cell) return '–';
  if (cell.state === 'works') return cell.note ? `works (${cell.note.replace(/\|/g, '\\|')})` : 'works';
  return `${cell.state}: ${cell.why.replace(/\|/g, '\\|')}`;
}

/** A table line's row key: client and transport and revision (the version may change). */
const keyOf = (cells: string[]) => `${cells[0]}|${cells[2]}|${cells[3]}`;
const cellsOf = (line: string) => line.replace(/^\|\s*|\s*\|$/g, '').split(/\s*(?<!\\)\|\s*/);

function rowLine(r: MatrixRow): string {
  return `| ${[r.client, r.version, r.transport, r.revision, ...FEATURES.map((f) => cellText(r.cells[f]))].join(' | ')} |`;
}

/** The table; `kept`: lines of rows that did not run this time, kept from the page, sorted in. */
export function renderMatrix(rows: MatrixRow[], kept: string[] = []): string {
  const head = ['Client', 'Version', 'Transport', 'Revision', ...FEATURES];
  const body = [...rows.map(rowLine), ...kept].sort((a, b) => {
    const [x, y] = [cellsOf(a), cellsOf(b)];
    return `${x[0]}${x[2]}${x[3]}`.localeCompare(`${y[0]}${y[2]}${y[3]}`);
  });
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body].join('\n');
}

/**
 * Replaces the text between the markers; returns true when the page changed.
 * `partial`: not every row ran (a filter, a client that could not run here), so
 * the page's lines of rows that did not run stay as they were.
 */
export function writeMatrix(page: string, rows: MatrixRow[], partial = false): boolean {
  const text = readFileSync(page, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${page} has no ${START} … ${END} markers`);
  const ran = new Set(rows.map((r) => keyOf([r.client, r.version, r.transport, r.revision])));
  const old = text
    .slice(from + START.length, to)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Client |'));
  const kept = partial ? old.filter((l) => !ran.has(keyOf(cellsOf(l)))) : [];
  const next = `${text.slice(0, from + START.length)}\n${renderMatrix(rows, kept)}\n${text.slice(to)}`;
  if (next === text) return false;
  writeFileSync(page, next);
  return true;
}
