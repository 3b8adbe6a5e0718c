import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoSymlinkBetween, safeJoin, UnsafePathError } from '../src/safe-path.js';
import { checkTarget, moveInto, TargetDirError, targetState } from '../src/target-dir.js';
import { tempDir } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('safeJoin', () => {
  it('joins paths inside the root', () => {
    expect(safeJoin('/srv/app', 'src/start.ts')).toBe('/srv/app/src/start.ts');
    expect(safeJoin('/srv/app', 'a/../b')).toBe('/srv/app/b');
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', '.', '', 'a\0b'])('refuses %j', (rel) => {
    expect(() => safeJoin('/srv/app', rel)).toThrow(UnsafePathError);
  });

  it('refuses to write through a symbolic link inside the root', () => {
    const root = tmp();
    const outside = tmp();
    symlinkSync(outside, join(root, 'src'));
    expect(() => assertNoSymlinkBetween(root, join(root, 'src', 'start.ts'))).toThrow(/symbolic link/);
    expect(() => assertNoSymlinkBetween(root, join(root, 'other', 'x.ts'))).not.toThrow();
  });
});

describe('target folder', () => {
  it('is missing, empty (a fresh git init counts as empty) or non-empty', () => {
    const root = tmp();
    expect(targetState(join(root, 'nope'))).toBe('missing');
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    expect(targetState(join(root, 'repo'))).toBe('empty');
    writeFileSync(join(root, 'repo', 'notes.txt'), 'mine');
    expect(targetState(join(root, 'repo'))).toBe('non-empty');
    expect(() => checkTarget(join(root, 'repo'), false)).toThrow(TargetDirError);
    expect(checkTarget(join(root, 'repo'), true)).toBe('non-empty');
    writeFileSync(join(root, 'file'), 'x');
    expect(() => targetState(join(root, 'file'))).toThrow(/not a folder/);
  });

  it('moveInto renames a whole folder, or merges into an existing one keeping other files', () => {
    const root = tmp();
    const from = join(root, 'from');
    mkdirSync(join(from, 'src'), { recursive: true });
    writeFileSync(join(from, 'src', 'a.ts'), 'new');
    writeFileSync(join(from, 'README.md'), 'new readme');
    moveInto(from, join(root, 'fresh'));
    expect(readFileSync(join(root, 'fresh', 'src', 'a.ts'), 'utf8')).toBe('new');
    expect(existsSync(from)).toBe(false);

    const from2 = join(root, 'from2');
    mkdirSync(join(from2, 'src'), { recursive: true });
    writeFileSync(join(from2, 'src', 'a.ts'), 'newer');
    writeFileSync(join(root, 'fresh', 'src', 'mine.ts'), 'kept');
    moveInto(from2, join(root, 'fresh'));
    expect(readFileSync(join(root, 'fresh', 'src', 'a.ts'), 'utf8')).toBe('newer');
    expect(readFileSync(join(root, 'fresh', 'src', 'mine.ts'), 'utf8')).toBe('kept');
    expect(existsSync(from2)).toBe(false);
  });

  it('moveInto never follows a symbolic link of the target', () => {
    const root = tmp();
    const outside = tmp();
    const from = join(root, 'from');
    mkdirSync(join(from, 'src'), { recursive: true });
    writeFileSync(join(from, 'src', 'a.ts'), 'x');
    mkdirSync(join(root, 'target'));
    symlinkSync(outside, join(root, 'target', 'src'));
    expect(() => moveInto(from, join(root, 'target'))).toThrow(UnsafePathError);
    expect(existsSync(join(outside, 'a.ts'))).toBe(false);
  });

  it('moveInto is all or nothing: a rename failing midway restores the folder as it was', () => {
    const root = tmp();
    const target = join(root, 'target');
    mkdirSync(join(target, 'src'), { recursive: true });
    writeFileSync(join(target, 'notes.txt'), 'mine');
    writeFileSync(join(target, 'README.md'), 'old readme');
    writeFileSync(join(target, 'src', 'legacy.ts'), 'old');
    const before = snapshot(target);
    const from = join(root, 'from');
    mkdirSync(join(from, 'src'), { recursive: true });
    for (const f of ['README.md', '.env', 'package.json', 'src/start.ts', 'src/legacy.ts']) writeFileSync(join(from, f), `new ${f}`);
    let calls = 0;
    const failing = { rename: (a: string, b: string) => {
      if (++calls === 5) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      renameSync(a, b);
    } };
    expect(() => moveInto(from, target, failing)).toThrow(/ENOSPC/);
    expect(calls).toBe(5);
    expect(snapshot(target)).toEqual(before);
    expect(existsSync(`${from}.replaced`)).toBe(false);
  });

  it('moveInto refuses a file where the template has a folder before moving anything', () => {
    const root = tmp();
    const target = join(root, 'target');
    mkdirSync(target);
    writeFileSync(join(target, 'README.md'), 'old');
    writeFileSync(join(target, 'src'), 'a file');
    const from = join(root, 'from');
    mkdirSync(join(from, 'src'), { recursive: true });
    writeFileSync(join(from, 'README.md'), 'new');
    writeFileSync(join(from, 'src', 'a.ts'), 'x');
    expect(() => moveInto(from, target)).toThrow(TargetDirError);
    expect(readFileSync(join(target, 'README.md'), 'utf8')).toBe('old');
  });
});

/** Every file under a folder with its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(dir.length)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}
