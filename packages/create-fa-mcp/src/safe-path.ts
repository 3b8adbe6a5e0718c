/**
 * Path checks: every file the scaffolder writes is resolved against its root and refused when it
 * would land outside it (`..`, absolute paths, or a symbolic link on the way).
 */
import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/** `root/rel`, or an UnsafePathError when `rel` escapes `root`. */
export function safeJoin(root: string, rel: string): string {
  if (isAbsolute(rel) || rel.includes('\0')) throw new UnsafePathError(`refusing to write ${JSON.stringify(rel)}: not a relative path`);
  const base = resolve(root);
  const full = resolve(base, rel);
  const back = relative(base, full);
  if (back === '' || back === '..' || back.startsWith(`..${sep}`) || isAbsolute(back)) {
    throw new UnsafePathError(`refusing to write ${JSON.stringify(rel)}: outside ${base}`);
  }
  return full;
}

/** Throws when any existing component between `root` and `full` is a symbolic link. */
export function assertNoSymlinkBetween(root: string, full: string): void {
  const base = resolve(root);
  const parts = relative(base, full).split(sep);
  let current = base;
  for (const part of parts) {
    current = join(current, part);
    let isLink = false;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return; // does not exist yet: nothing below it exists either
    }
    if (isLink) throw new UnsafePathError(`refusing to write through the symbolic link ${current}`);
  }
}
