/**
 * The target folder: checked before anything is written (missing or empty, unless --force), and
 * filled at the end by moving the fully rendered temporary folder into it.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UnsafePathError } from './safe-path.js';

/** Entries that do not make a folder "non-empty" (a fresh `git init`, OS litter). */
const IGNORABLE = new Set(['.git', '.DS_Store', 'Thumbs.db']);

export class TargetDirError extends Error {
  override name = 'TargetDirError';
}

export type TargetState = 'missing' | 'empty' | 'non-empty';

export function targetState(dir: string): TargetState {
  if (!existsSync(dir)) return 'missing';
  if (!statSync(dir).isDirectory()) throw new TargetDirError(`${dir} exists and is not a folder`);
  return readdirSync(dir).some((name) => !IGNORABLE.has(name)) ? 'non-empty' : 'empty';
}

export function checkTarget(dir: string, force: boolean): TargetState {
  const state = targetState(dir);
  if (state === 'non-empty' && !force) {
    throw new TargetDirError(`${dir} is not empty. Choose another folder, or pass --force to write the template's files into it (other files stay).`);
  }
  return state;
}

/** Moves every entry of `from` into `to` (created when missing); files of the same name are replaced. */
export function moveInto(from: string, to: string): void {
  if (!existsSync(to)) {
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    return;
  }
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dest = join(to, name);
    const existing = existsSync(dest) ? lstatSync(dest) : undefined;
    if (existing?.isSymbolicLink()) throw new UnsafePathError(`refusing to write through the symbolic link ${dest}`);
    if (existing?.isDirectory() && lstatSync(src).isDirectory()) moveInto(src, dest);
    else if (existing?.isDirectory()) throw new TargetDirError(`${dest} is a folder; the template has a file there`);
    else renameSync(src, dest);
  }
  rmdirSync(from);
}
