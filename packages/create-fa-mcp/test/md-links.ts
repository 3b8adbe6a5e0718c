/**
 * Relative links of Markdown pages: which do not resolve (a missing file, or a `#fragment` that
 * names no heading of the Markdown file, by GitHub's anchor rules). Used for the repository's docs
 * and for a generated project's.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id as string);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The link targets of a page outside code blocks and code spans, with their line numbers. */
function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (raw.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const [, target] of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: target as string, line: i + 1 });
  });
  return out;
}

/** `page:line: target (why)` for every relative link of `pages` (relative to `root`) that does not resolve. */
export function brokenLinks(root: string, pages: readonly string[]): string[] {
  const broken: string[] = [];
  for (const page of pages) {
    const file = join(root, page);
    const markdown = readFileSync(file, 'utf8');
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path = '', fragment] = target.split('#');
      const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) {
        broken.push(`${page}:${line}: ${target} (no such file: ${relative(root, dest)})`);
        continue;
      }
      if (fragment && dest.endsWith('.md') && statSync(dest).isFile() && !anchorsOf(readFileSync(dest, 'utf8')).has(fragment)) {
        broken.push(`${page}:${line}: ${target} (no heading with anchor #${fragment} in ${relative(root, dest)})`);
      }
    }
  }
  return broken;
}
