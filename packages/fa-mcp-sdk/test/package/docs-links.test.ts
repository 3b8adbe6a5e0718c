/**
 * Every relative link of the documentation and the READMEs resolves: the file exists, and a
 * `#fragment` into a Markdown file names one of its headings (GitHub's anchor rules).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const PAGES = [
  ...readdirSync(join(ROOT, 'FA-MCP-SDK-DOC')).filter((f) => f.endsWith('.md')).map((f) => `FA-MCP-SDK-DOC/${f}`),
  'README.md',
  'packages/fa-mcp-sdk/README.md',
  'packages/create-fa-mcp/README.md',
  'scripts/bench/results.md',
  ...readdirSync(join(ROOT, 'examples')).map((d) => `examples/${d}/README.md`).filter((f) => existsSync(join(ROOT, f))),
];

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

it('every relative link in the docs and READMEs resolves', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const file = join(ROOT, page);
    const markdown = readFileSync(file, 'utf8');
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path = '', fragment] = target.split('#');
      const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) {
        broken.push(`${page}:${line}: ${target} (no such file: ${relative(ROOT, dest)})`);
        continue;
      }
      if (fragment && dest.endsWith('.md') && statSync(dest).isFile() && !anchorsOf(readFileSync(dest, 'utf8')).has(fragment)) {
        broken.push(`${page}:${line}: ${target} (no heading with anchor #${fragment} in ${relative(ROOT, dest)})`);
      }
    }
  }
  expect(broken, 'fix or remove these links (page:line: target)').toEqual([]);
});
