// `node:fs` with a `globSync` for Node versions that lack one (before 22).
// Supports what Node's own globSync does for the common cases: one pattern or
// several, `cwd` (path or file URL), `exclude` as a function, the wildcards
// `*`, `?`, `**`, `[...]` and `{a,b}`; names starting with a dot match only a
// pattern segment that starts with a dot. Results are relative to `cwd` for
// relative patterns and absolute for absolute ones, without duplicates.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export * from 'node:fs';
export default fs;

const MAGIC = /[*?[\]{}]/;

/** Expands `{a,b}` alternatives (nested too) into separate patterns. */
function expandBraces(pattern) {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    if (pattern[i] === '{') depth++;
    else if (pattern[i] === '}' && --depth === 0) {
      const body = pattern.slice(open + 1, i);
      const parts = [];
      let start = 0;
      let d = 0;
      for (let j = 0; j < body.length; j++) {
        if (body[j] === '{') d++;
        else if (body[j] === '}') d--;
        else if (body[j] === ',' && d === 0) {
          parts.push(body.slice(start, j));
          start = j + 1;
        }
      }
      parts.push(body.slice(start));
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      // a single alternative is not an alternation: the braces stay literal
      if (parts.length === 1) return expandBraces(tail).map((t) => `${head}{${body}}${t}`);
      return parts.flatMap((p) => expandBraces(head + p + tail));
    }
  }
  return [pattern];
}

/** One path segment of a glob as an anchored regular expression. */
function segmentRegExp(segment) {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      if (body[0] === '!') body = '^' + body.slice(1);
      re += '[' + body.replace(/\\/g, '\\\\') + ']';
      i = close;
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function readDir(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isDirectory(p) {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function walk(abs, rel, segments, index, out) {
  if (index === segments.length) {
    out.add(rel === '' ? '.' : rel);
    return;
  }
  const segment = segments[index];
  const join = (name) => (rel === '' ? name : path.join(rel, name));
  if (segment === '**') {
    walk(abs, rel, segments, index + 1, out);
    for (const entry of readDir(abs)) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) {
        walk(path.join(abs, entry.name), join(entry.name), segments, index, out);
      }
    }
    return;
  }
  const last = index === segments.length - 1;
  if (!MAGIC.test(segment)) {
    const next = path.join(abs, segment);
    if (last ? fs.existsSync(next) : isDirectory(next)) walk(next, join(segment), segments, index + 1, out);
    return;
  }
  const re = segmentRegExp(segment);
  for (const entry of readDir(abs)) {
    if (entry.name.startsWith('.') && !segment.startsWith('.')) continue;
    if (!re.test(entry.name)) continue;
    const next = path.join(abs, entry.name);
    if (last || entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(next))) {
      walk(next, join(entry.name), segments, index + 1, out);
    }
  }
}

function polyfillGlobSync(pattern, options = {}) {
  if (options.withFileTypes) throw new TypeError('globSync polyfill: withFileTypes is not supported');
  const cwd = options.cwd instanceof URL ? fileURLToPath(options.cwd) : path.resolve(options.cwd ?? process.cwd());
  const out = new Set();
  for (const p of (Array.isArray(pattern) ? pattern : [pattern]).flatMap(expandBraces)) {
    const normalized = p.replace(/\\/g, '/');
    if (path.isAbsolute(normalized)) {
      const root = path.parse(normalized).root;
      const segments = normalized.slice(root.length).split('/').filter(Boolean);
      const found = new Set();
      walk(root, '', segments, 0, found);
      for (const r of found) out.add(r === '.' ? root : path.join(root, r));
    } else {
      walk(cwd, '', normalized.split('/').filter((s) => s !== '' && s !== '.'), 0, out);
    }
  }
  const exclude = typeof options.exclude === 'function' ? options.exclude : () => false;
  return [...out].filter((p) => !exclude(p));
}

export const globSync = typeof fs.globSync === 'function' ? fs.globSync : polyfillGlobSync;
