/**
 * The table of README.md names, for every seed item, the tests that prove it (`file` › name):
 * each named file exists here and has a test of that name, so the table cannot point at a test
 * that was renamed or removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const HERE = import.meta.dirname;
const README = readFileSync(join(HERE, '..', 'README.md'), 'utf8');
const TABLE = README.slice(README.indexOf('## Every seed item and the test that proves it'));

/** The names of the tests a file declares (`it('…'`), unescaped. */
function testNames(file: string): string[] {
  const source = readFileSync(join(HERE, file), 'utf8');
  return [...source.matchAll(/\bit\('((?:[^'\\]|\\.)*)'/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1'));
}

/** Every `file` › name reference of the table's "Proved by" cells. */
function references(): Array<{ file: string; rest: string }> {
  const rows = TABLE.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Seed item') && !line.startsWith('|---'));
  return rows.flatMap((row) => {
    const provedBy = row.split(' | ').at(-1)?.replace(/ \|$/, '') ?? '';
    return provedBy.split('<br>').map((segment) => {
      const m = /^`([\w.-]+\.test\.ts)` › (.+)$/.exec(segment.trim());
      if (!m) throw new Error(`not a "file › test" reference: ${segment}`);
      return { file: m[1] as string, rest: m[2] as string };
    });
  });
}

describe('README.md', () => {
  it('names, for every seed item, tests that exist', () => {
    const refs = references();
    expect(refs.length).toBeGreaterThan(50);
    for (const { file, rest } of refs) {
      expect(existsSync(join(HERE, file)), file).toBe(true);
      const name = testNames(file).find((n) => rest === n || rest.startsWith(`${n} (`));
      expect(name, `${file} › ${rest}`).toBeDefined();
    }
  });
});
