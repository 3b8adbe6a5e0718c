// Reads a V8 .cpuprofile and says where the time went: top functions by self time and by total time
// (each function counted once per sample, so recursion does not inflate it), and self time per
// package or source folder. Bundled code (the bench servers) is mapped back to its sources through
// the bundle's source map, when there is one.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map();
function sourceMapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** Where a frame's code lives: `pkg:<name>`, a source path of the library, or `(node)`/`(native)`. */
function whereOf(frame) {
  const { url, lineNumber, columnNumber } = frame;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/').slice(0, 2).join('/');
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (pkg && !url.includes('.cache/fa-mcp-bench')) return `pkg:${pkg[1]}`;
  const map = sourceMapOf(url);
  const entry = map?.findEntry(lineNumber, columnNumber);
  if (entry?.originalSource) {
    const src = entry.originalSource;
    const i = src.indexOf('/src/');
    const inPkg = src.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
    if (inPkg) return `pkg:${inPkg[1]}`;
    return i >= 0 ? src.slice(i + 1) : src.replace(/^.*\/scripts\//, 'scripts/');
  }
  return url.replace(/^.*\//, '');
}

const pct = (us, all) => `${((100 * us) / all).toFixed(1).padStart(5)}%`;

/** `lastSec`: only the samples of the profile's last seconds (the measured window, without start-up). */
export function summarizeProfile(profile, { top = 30, callers = [], lastSec } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = new Map();
  const where = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const w = whereOf(f);
    const key = `${f.functionName || '(anonymous)'}  ${w}:${f.lineNumber + 1}`;
    keyOf.set(n.id, key);
    where.set(n.id, w.replace(/\/[^/]*$/, (m) => (w.startsWith('src/') ? m : m)));
  }
  const stacks = new Map();
  const self = new Map();
  const total = new Map();
  const selfWhere = new Map();
  let all = 0;
  let idle = 0;
  const { samples, timeDeltas } = profile;
  const at = [];
  for (let i = 0, t = profile.startTime; i < samples.length; i++) at.push((t += timeDeltas[i] ?? 0));
  const from = lastSec ? (at[at.length - 1] ?? 0) - lastSec * 1e6 : -Infinity;
  for (let i = 0; i < samples.length; i++) {
    if (at[i] < from) continue;
    const dt = timeDeltas[i + 1] ?? timeDeltas[i] ?? 0;
    const id = samples[i];
    const leaf = byId.get(id);
    if (leaf.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    all += dt;
    self.set(keyOf.get(id), (self.get(keyOf.get(id)) ?? 0) + dt);
    selfWhere.set(where.get(id), (selfWhere.get(where.get(id)) ?? 0) + dt);
    if (callers.length) {
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        if (!callers.some((c) => keyOf.get(cur).startsWith(c))) continue;
        const chain = [];
        for (let up = cur, d = 0; up !== undefined && d < 6; up = parent.get(up), d++) chain.push(keyOf.get(up));
        const k = chain.join('\n      <- ');
        stacks.set(k, (stacks.get(k) ?? 0) + dt);
        break;
      }
    }
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = keyOf.get(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const lines = [`busy ${(all / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s`];
  const list = (title, m, n) => {
    lines.push('', title);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) lines.push(`${pct(v, all)}  ${k}`);
  };
  list('self time by place', selfWhere, top);
  list('self time by function', self, top);
  list('total time by function', total, top * 2);
  if (callers.length) list(`callers of ${callers.join(', ')} (total time)`, stacks, 12);
  return lines.join('\n');
}
