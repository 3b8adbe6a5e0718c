/**
 * The target folder: checked before anything is written (missing or empty, unless --force), and
 * filled at the end by moving the fully rendered temporary folder into it.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
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

/** The file-system calls of a move (a test injects a failing one). */
export interface MoveOps {
  rename(from: string, to: string): void;
}

const fsOps: MoveOps = { rename: renameSync };

interface MoveStep {
  src: string;
  dest: string;
  /** `dest` exists and is replaced: it is set aside first, and put back if the move fails. */
  replaces: boolean;
}

/** Every rename the move needs, checked before any is made. */
function planMoves(from: string, to: string, steps: MoveStep[] = []): MoveStep[] {
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dest = join(to, name);
    const existing = existsSync(dest) || isDanglingLink(dest) ? lstatSync(dest) : undefined;
    const srcIsDir = lstatSync(src).isDirectory();
    if (existing?.isSymbolicLink()) throw new UnsafePathError(`refusing to write through the symbolic link ${dest}`);
    if (existing?.isDirectory() && srcIsDir) planMoves(src, dest, steps);
    else if (existing?.isDirectory()) throw new TargetDirError(`${dest} is a folder; the template has a file there`);
    else if (existing && srcIsDir) throw new TargetDirError(`${dest} is a file; the template has a folder there`);
    else steps.push({ src, dest, replaces: existing !== undefined });
  }
  return steps;
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Moves every entry of `from` into `to` (created when missing); files of the same name are
 * replaced. All or nothing: conflicts are found before anything moves, and when a rename fails
 * midway the entries already moved go back and the replaced files are restored.
 */
export function moveInto(from: string, to: string, ops: MoveOps = fsOps): void {
  if (!existsSync(to)) {
    mkdirSync(dirname(to), { recursive: true });
    ops.rename(from, to);
    return;
  }
  const steps = planMoves(from, to);
  const setAside = `${from}.replaced`;
  const undo: Array<() => void> = [];
  try {
    steps.forEach((step, i) => {
      if (step.replaces) {
        const kept = join(setAside, String(i));
        mkdirSync(setAside, { recursive: true });
        ops.rename(step.dest, kept);
        undo.push(() => renameSync(kept, step.dest));
      }
      ops.rename(step.src, step.dest);
      undo.push(() => renameSync(step.dest, step.src));
    });
  } catch (err) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // best effort: the error of the move is the one to report
      }
    }
    rmSync(setAside, { recursive: true, force: true });
    throw err;
  }
  rmSync(setAside, { recursive: true, force: true });
  rmSync(from, { recursive: true, force: true });
}
