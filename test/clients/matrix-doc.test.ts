/** The matrix page writer: a full run replaces the table; a partial run keeps the lines of rows that did not run. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { END, START, writeMatrix } from './src/matrix-doc.js';
import type { MatrixRow } from './src/matrix-types.js';

const row = (client: string, revision: MatrixRow['revision'], note?: string): MatrixRow => ({
  client,
  version: '1.0.0',
  transport: 'stdio',
  revision,
  cells: { connect: note ? { state: 'works', note } : { state: 'works' }, 'bad argument': { state: 'not supported', why: 'a | b' } },
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function page(rows: MatrixRow[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-doc-'));
  dirs.push(dir);
  const file = join(dir, 'page.md');
  writeFileSync(file, `# Page\n\n${START}\n${END}\n\nAfter.\n`);
  writeMatrix(file, rows);
  return file;
}

const tableLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Client'));

describe('matrix page', () => {
  it('writes every row, sorted, with notes and escaped pipes, and leaves the text around the markers', () => {
    const file = page([row('B client', '2025-11-25'), row('A client', '2026-07-28', 'partly')]);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# Page\n\n<!-- client-matrix:start -->\n| Client |')).toBe(true);
    expect(text.endsWith('<!-- client-matrix:end -->\n\nAfter.\n')).toBe(true);
    const lines = tableLines(file);
    expect(lines.map((l) => l.split(' | ')[0])).toEqual(['| A client', '| B client']);
    expect(lines[0]).toContain('| works (partly) |');
    expect(lines[0]).toContain('not supported: a \\| b');
  });

  it('a full run drops rows that are gone; a partial run keeps the lines of rows that did not run', () => {
    const file = page([row('A client', '2025-11-25'), row('B client', '2025-11-25')]);
    writeMatrix(file, [{ ...row('A client', '2025-11-25', 'again') }], true);
    expect(tableLines(file).map((l) => l.split(' | ').slice(0, 5).join(' | '))).toEqual(['| A client | 1.0.0 | stdio | 2025-11-25 | works (again)', '| B client | 1.0.0 | stdio | 2025-11-25 | works']);
    writeMatrix(file, [row('A client', '2025-11-25')]);
    expect(tableLines(file)).toHaveLength(1);
  });
});
