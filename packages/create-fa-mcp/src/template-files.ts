/**
 * The files of a template folder, as relative paths with the names they get in the project.
 * Files npm would drop from a published package are stored under another name in the bundled
 * copy (`_gitignore`) and get their real name back here.
 */
import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/** Stored name -> real name in the generated project. */
export const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore' };

/** Never copied from a template folder: build output, installs, and anything that may hold secrets. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.env', 'local.yaml', '.DS_Store']);

export interface TemplateFile {
  /** Absolute path of the source file. */
  source: string;
  /** Path inside the project, with forward slashes. */
  target: string;
}

export function listTemplateFiles(root: string, prefix = ''): TemplateFile[] {
  const out: TemplateFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIPPED.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const rel = relative(root, full).split(sep);
        const last = rel.pop() as string;
        rel.push(RENAMED[last] ?? last);
        out.push({ source: full, target: posix.join(prefix, ...rel) });
      }
      // Symbolic links and special files are never followed or copied.
    }
  };
  walk(root);
  return out;
}

/** True for files to copy byte for byte (a NUL byte in the first 8 KiB). */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}
